package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.TopContainerResponse;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.logging.Log;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A celld stopped with SIGSTOP (from outside: celld has a user of its own, so the workload cannot)
 * costs sandbox-service a small, bounded queue: requests past it fail at once with
 * {@code sandbox_busy}, other sandboxes are served meanwhile, the heap does not grow with the
 * burst, and the sandbox works again once celld runs.
 */
@QuarkusTest
class StalledCelldTest {

  private static final int BURST = 50;
  private static final long MIB = 1 << 20;

  @Inject
  SandboxClient sandboxes;

  @Inject
  NatsRequester requester;

  @Inject
  DockerClient docker;

  @Inject
  RequestQueueBudget budget;

  @Test
  void aStoppedCelldCostsABoundedQueueAndOthersAreServed() throws Exception {
    SandboxRef stalled = sandboxes.newTask("stall-owner");
    SandboxRef other = sandboxes.shared();
    String content = "x".repeat((int) MIB);
    write(stalled, "before.txt", "ok");
    String celld = celldPid(sandboxes.ensure(stalled).containerId());
    long heapBefore = usedHeapAfterGc();
    signal("STOP", celld);
    List<CompletableFuture<FileWritten>> burst = new ArrayList<>();
    AtomicLong lastRefusal = new AtomicLong();
    try {
      long started = System.nanoTime();
      for (int i = 0; i < BURST; i++) {
        CompletableFuture<FileWritten> write = requester.request(SandboxSubjects.FILES_WRITE,
            new WriteFile(stalled, "big-" + i + ".txt", content, null, false), SandboxClient.RUNNER,
            Duration.ofSeconds(90)).subscribeAsCompletionStage();
        write.whenComplete((ok, error) -> lastRefusal.accumulateAndGet(System.nanoTime() - started, Math::max));
        burst.add(write);
      }
      List<CompletableFuture<FileWritten>> refused = burst.stream().filter(f -> failsWithin(f, started, 10)).toList();
      // Only the few that fit the 4 MiB queue wait for celld; every other one is refused at once.
      assertThat(refused).hasSizeGreaterThanOrEqualTo(BURST - 10);
      for (CompletableFuture<FileWritten> f : refused) {
        assertThat(failure(f).code()).isEqualTo(ErrorCode.SANDBOX_BUSY);
      }
      assertThat(Duration.ofNanos(lastRefusal.get())).isLessThan(Duration.ofSeconds(5));

      // Another sandbox is served while this one's celld is stopped.
      write(other, "served-meanwhile.txt", "yes");
      assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(other, "served-meanwhile.txt")).content())
          .isEqualTo("yes");

      // What waits for the stopped celld is its small queue, not the burst.
      assertThat(budget.used()).isLessThanOrEqualTo(4 * MIB + 2 * MIB);
      long grown = usedHeapAfterGc() - heapBefore;
      Log.infof("stalled celld: %d of %d writes refused within %d ms, %d bytes queued, heap grew %d KiB", refused.size(), BURST,
          lastRefusal.get() / 1_000_000, budget.used(), grown >> 10);
      assertThat(grown).as("heap growth in bytes while %d MiB of requests were sent", BURST).isLessThan(32 * MIB);
    } finally {
      signal("CONT", celld);
    }
    // The queued requests are answered once celld runs again, and the sandbox keeps working.
    for (CompletableFuture<FileWritten> f : burst) {
      f.handle((ok, error) -> null).get(60, TimeUnit.SECONDS);
    }
    write(stalled, "after.txt", "ok");
    assertThat(budget.used()).isLessThan(MIB);
    sandboxes.deleteQuietly(stalled);
  }

  private static boolean failsWithin(CompletableFuture<?> future, long startedNanos, long seconds) {
    long left = TimeUnit.SECONDS.toNanos(seconds) - (System.nanoTime() - startedNanos);
    try {
      future.get(Math.max(1, left), TimeUnit.NANOSECONDS);
      return false;
    } catch (Exception e) {
      return future.isCompletedExceptionally();
    }
  }

  private static WorkcellException failure(CompletableFuture<?> future) {
    try {
      future.join();
      throw new AssertionError("expected a failure");
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      assertThat(cause).isInstanceOf(WorkcellException.class);
      return (WorkcellException) cause;
    }
  }

  private void write(SandboxRef ref, String path, String text) {
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, path, text, null, false));
  }

  /** celld's pid on the host (docker top), so the test stops it from outside whatever user it runs as. */
  private String celldPid(String containerId) {
    TopContainerResponse top = docker.topContainerCmd(containerId).exec();
    List<String> titles = Arrays.asList(top.getTitles());
    int pid = titles.indexOf("PID");
    int cmd = titles.indexOf("CMD");
    return Arrays.stream(top.getProcesses()).filter(p -> p[cmd].contains("celld serve")).map(p -> p[pid]).findFirst()
        .orElseThrow(() -> new AssertionError("no celld in " + Arrays.deepToString(top.getProcesses())));
  }

  private static void signal(String name, String pid) throws IOException, InterruptedException {
    assertThat(new ProcessBuilder("kill", "-" + name, pid).inheritIO().start().waitFor()).isZero();
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }
}
