package dev.workcell.sandbox.home;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Homes have their own pool (here 2, idle stop after 10 s), apart from Work's caps: a full pool
 * stops its least recently used idle home for a newcomer; busy homes are never stopped for one.
 */
@QuarkusTest
@TestProfile(HomeAdmissionTest.SmallHomePool.class)
class HomeAdmissionTest {

  public static class SmallHomePool implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.sandbox.home.max-active", "2", "workcell.sandbox.home.idle-timeout", "10s");
    }
  }

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Inject
  SandboxSettings settings;

  private final List<SandboxRef> homes = new ArrayList<>();
  private final List<SandboxRef> tasks = new ArrayList<>();

  @AfterEach
  void cleanUp() {
    homes.forEach(home -> sandboxes.call(SandboxSubjects.STOP, home));
    tasks.forEach(sandboxes::deleteQuietly);
  }

  private SandboxRef home(String prefix) {
    SandboxRef ref = sandboxes.newHome(prefix);
    homes.add(ref);
    return ref;
  }

  private void use(SandboxRef ref) {
    sandboxes.call(SandboxSubjects.FILES_LIST, new ListFiles(ref, ""));
  }

  private boolean running(SandboxRef ref) {
    String name = SandboxKey.of(ref).container(settings.instance());
    return Boolean.TRUE.equals(docker.inspectContainerCmd(name).exec().getState().getRunning());
  }

  private void startBackgroundProcess(SandboxRef ref) {
    ProcessView process = sandboxes.call(SandboxSubjects.PROCESS_START, new StartProcess(ref, "sleep 300", null, null, null, null));
    assertThat(process.status()).isEqualTo("running");
  }

  @Test
  void aNewHomeStopsTheLeastRecentlyUsedIdleOneWhoseFilesSurviveAndComeBack() {
    SandboxRef a = home("lru-a");
    SandboxRef b = home("lru-b");
    SandboxRef c = home("lru-c");
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(a, "notes.txt", "a's notes", null, false));
    use(b);
    // a is used last, so b is the least recently used (both well within the idle timeout).
    use(b);
    use(a);

    assertThat(sandboxes.ensure(c).state()).isEqualTo("running");
    assertThat(running(b)).as("the least recently used idle home was stopped").isFalse();
    assertThat(running(a)).isTrue();
    assertThat(running(c)).isTrue();

    // b comes back on its next use (stopping the now least recently used idle home, a), its volume intact.
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(b, "later.txt", "b again", null, false));
    assertThat(running(b)).isTrue();
    assertThat(running(a)).isFalse();
    assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(a, "notes.txt")).content())
        .isEqualTo("a's notes");
    assertThat(running(a)).isTrue();
  }

  @Test
  void aHomeWithARunningBackgroundProcessIsNotStoppedForANewcomer() {
    SandboxRef busy = home("busy");
    SandboxRef idle = home("idle");
    startBackgroundProcess(busy);
    use(idle);
    // busy is the least recently used, but its process keeps it: idle makes room instead.
    SandboxRef third = home("third");
    assertThat(sandboxes.ensure(third).state()).isEqualTo("running");
    assertThat(running(busy)).isTrue();
    assertThat(running(idle)).isFalse();

    // With every home busy, the next newcomer is refused (the gateway answers 429 + Retry-After).
    startBackgroundProcess(third);
    WorkcellException refused = sandboxes.failure(SandboxSubjects.FILES_LIST, new ListFiles(home("fourth"), ""));
    assertThat(refused.code()).isEqualTo(ErrorCode.TOO_MANY_RUNTIMES);
    assertThat(refused.code().httpStatus()).isEqualTo(429);
    assertThat(running(busy)).isTrue();
    assertThat(running(third)).isTrue();
  }

  @Test
  void homesNeverTakeAWorkSlotAndNeverStopATaskSandbox() {
    SandboxRef first = home("beside-work-1");
    SandboxRef second = home("beside-work-2");
    sandboxes.ensure(first);
    sandboxes.ensure(second);
    // Work's caps in tests: 3 global, 2 per owner. All three start with the home pool full.
    for (String owner : List.of("work-owner-1", "work-owner-1", "work-owner-2")) {
      SandboxRef task = sandboxes.newTask(owner);
      tasks.add(task);
      assertThat(sandboxes.ensure(task).state()).isEqualTo("running");
    }
    SandboxRef fourth = sandboxes.newTask("work-owner-3");
    tasks.add(fourth);
    assertThat(sandboxes.failure(SandboxSubjects.ENSURE, fourth).code()).isEqualTo(ErrorCode.TOO_MANY_RUNTIMES);

    // A third home makes room among homes only; every task sandbox keeps running. (The uses order
    // the homes and restart any the 10 s idle stop took while the tasks started.)
    use(first);
    use(second);
    SandboxRef third = home("beside-work-3");
    assertThat(sandboxes.ensure(third).state()).isEqualTo("running");
    assertThat(running(first)).isFalse();
    assertThat(running(second)).isTrue();
    for (SandboxRef task : tasks.subList(0, 3)) {
      assertThat(sandboxes.call(SandboxSubjects.STATUS, task).state()).isEqualTo("running");
    }
  }

  @Test
  void anIdleHomeIsStoppedAfterTheHomeIdleTimeout() throws InterruptedException {
    SandboxRef ref = home("idle-timeout");
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "kept.txt", "kept", null, false));
    assertThat(running(ref)).isTrue();
    // 10 s idle timeout, swept every 2.5 s.
    long deadline = System.nanoTime() + 40_000_000_000L;
    while (running(ref) && System.nanoTime() < deadline) {
      Thread.sleep(500);
    }
    assertThat(running(ref)).as("stopped after being idle").isFalse();
    assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "kept.txt")).content()).isEqualTo("kept");
  }
}
