package dev.workcell.sandbox.admission.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.HoldRuntime;
import dev.workcell.contracts.sandbox.PreviewState;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.ReleaseRuntime;
import dev.workcell.contracts.sandbox.RuntimeHold;
import dev.workcell.contracts.sandbox.RuntimeUsage;
import dev.workcell.contracts.sandbox.RuntimeUsageQuery;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartPreview;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Leases that end, against the real engine: a sandbox with no holder left stops after the release
 * grace (1 s here) and frees its slot; a run's hold and a verified preview keep it running; a run
 * that finds the instance full (2 slots here) waits in line for the next free one.
 */
@QuarkusTest
@TestProfile(RuntimeLeaseTest.ShortGrace.class)
class RuntimeLeaseTest {

  public static class ShortGrace implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.sandbox.release-grace", "1s", "workcell.sandbox.max-active-runtimes-global", "2",
          "workcell.sandbox.max-waiting-runs", "1");
    }
  }

  private static final Duration STOPPED_WITHIN = Duration.ofSeconds(10);

  @Inject
  SandboxClient sandboxes;

  @Inject
  NatsRequester nats;

  private final List<SandboxRef> made = new ArrayList<>();

  @AfterEach
  void cleanUp() {
    made.forEach(sandboxes::deleteQuietly);
  }

  @Test
  void aSandboxLeftWithoutAHolderStopsAfterTheGraceAndStartsAgainOnUse() throws Exception {
    SandboxRef ref = task("grace-owner");
    write(ref, "kept.txt", "still here");
    assertThat(state(ref)).isEqualTo("running");

    awaitState(ref, "stopped");
    assertThat(usage("grace-owner").userActive()).as("the slot is free again").isZero();
    assertThat(read(ref, "kept.txt")).as("a file helper starts it again, workspace intact").isEqualTo("still here");
  }

  @Test
  void aRunsHoldKeepsItsSandboxRunningUntilReleased() throws Exception {
    SandboxRef ref = task("run-owner");
    hold(ref, "run-1", 0);
    write(ref, "a.txt", "x");
    Thread.sleep(3_000); // three graces
    assertThat(state(ref)).isEqualTo("running");

    release(ref, "run-1");
    awaitState(ref, "stopped");
  }

  @Test
  void aVerifiedPreviewKeepsItsSandboxRunningUntilItIsStopped() throws Exception {
    SandboxRef ref = task("preview-owner");
    write(ref, "index.html", "<h1>kept</h1>");
    PreviewState preview = sandboxes.call(SandboxSubjects.PREVIEW_START, new StartPreview(ref, null));
    assertThat(preview.running()).isTrue();
    Thread.sleep(3_000);
    assertThat(state(ref)).isEqualTo("running");

    sandboxes.call(SandboxSubjects.PREVIEW_STOP, ref);
    awaitState(ref, "stopped");
  }

  @Test
  void aRunThatFindsTheInstanceFullWaitsInLineForTheNextFreeSlot() throws Exception {
    SandboxRef first = task("line-a");
    SandboxRef second = task("line-b");
    SandboxRef third = task("line-c");
    SandboxRef fourth = task("line-d");
    hold(first, "run-a", 0);
    hold(second, "run-b", 0);
    assertThat(usage(null).globalActive()).isEqualTo(2);

    var refused = sandboxes.failure(SandboxSubjects.LEASE_HOLD, new HoldRuntime(third, "run-c", 60_000, 0), SandboxClient.RUNNER);
    assertThat(refused.code()).isEqualTo(ErrorCode.TOO_MANY_RUNTIMES);
    CompletableFuture<RuntimeHold> waiting = nats.request(SandboxSubjects.LEASE_HOLD, new HoldRuntime(third, "run-c", 60_000, 20_000),
        SandboxClient.RUNNER, Duration.ofSeconds(30)).subscribeAsCompletionStage();
    awaitWaiting(1);
    var full = sandboxes.failure(SandboxSubjects.LEASE_HOLD, new HoldRuntime(fourth, "run-d", 60_000, 20_000), SandboxClient.RUNNER);
    assertThat(full.getMessage()).contains("cannot be queued");
    assertThat(waiting).isNotDone();

    release(first, "run-a"); // nothing else uses it: the slot is free after the grace
    RuntimeHold granted = waiting.get(15, TimeUnit.SECONDS);
    assertThat(granted.held()).isTrue();
    assertThat(granted.waitedMs()).isPositive();
    assertThat(usage("line-c").userActive()).isEqualTo(1);

    var timedOut = sandboxes.failure(SandboxSubjects.LEASE_HOLD, new HoldRuntime(fourth, "run-d", 60_000, 1_500), SandboxClient.RUNNER);
    assertThat(timedOut.code()).isEqualTo(ErrorCode.TOO_MANY_RUNTIMES);
    assertThat(timedOut.getMessage()).startsWith("no sandbox slot became free within 1 s");
  }

  @Test
  void onlyServicesMayHoldASlot() {
    SandboxRef ref = task("holder-owner");
    var refused = sandboxes.failure(SandboxSubjects.LEASE_HOLD, new HoldRuntime(ref, "mine", 60_000, 0),
        new Actor("holder-owner", Actor.Role.USER));
    assertThat(refused.code()).isEqualTo(ErrorCode.FORBIDDEN);
  }

  private SandboxRef task(String owner) {
    SandboxRef ref = sandboxes.newTask(owner);
    made.add(ref);
    return ref;
  }

  private void hold(SandboxRef ref, String holder, long waitMs) {
    assertThat(sandboxes.call(SandboxSubjects.LEASE_HOLD, new HoldRuntime(ref, holder, 60_000, waitMs),
        SandboxClient.RUNNER).held()).isTrue();
  }

  private void release(SandboxRef ref, String holder) {
    sandboxes.call(SandboxSubjects.LEASE_RELEASE, new ReleaseRuntime(ref, holder), SandboxClient.RUNNER);
  }

  private RuntimeUsage usage(String owner) {
    return sandboxes.call(SandboxSubjects.RUNTIME_USAGE, new RuntimeUsageQuery(owner), SandboxClient.RUNNER);
  }

  private void write(SandboxRef ref, String path, String content) {
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, path, content, null, true));
  }

  private String read(SandboxRef ref, String path) {
    return sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, path)).content();
  }

  private String state(SandboxRef ref) {
    return sandboxes.call(SandboxSubjects.STATUS, ref).state();
  }

  private void awaitState(SandboxRef ref, String wanted) throws InterruptedException {
    long deadline = System.nanoTime() + STOPPED_WITHIN.toNanos();
    while (!wanted.equals(state(ref))) {
      assertThat(System.nanoTime()).as("the sandbox of " + ref.taskId() + " should be " + wanted).isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private void awaitWaiting(int runs) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (usage(null).waiting() != runs) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
