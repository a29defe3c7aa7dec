package dev.workcell.sandbox.admission.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.HoldRuntime;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.ReleaseRuntime;
import dev.workcell.contracts.sandbox.RuntimeUsage;
import dev.workcell.contracts.sandbox.RuntimeUsageQuery;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.testing.SandboxClient;
import dev.workcell.sandbox.testing.TaskServiceFixture;
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
 * Capacity-aware admission on the real engine: a memory budget of 768m and sandboxes of 256m each,
 * homes and tasks in one ledger. A start past the budget stops the least recently used idle sandbox
 * (its volume kept); when every running sandbox is busy it is refused with 429 runtime_capacity.
 */
@QuarkusTest
@TestProfile(CapacityAdmissionTest.SmallBudget.class)
class CapacityAdmissionTest {

  private static final long MIB = 1L << 20;

  public static class SmallBudget implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      // Work's slot caps out of the way, so memory alone decides.
      return Map.of("workcell.sandbox.memory-budget", "768m", "workcell.sandbox.memory-limit", "256m",
          "workcell.sandbox.max-active-runtimes-global", "10", "workcell.sandbox.max-active-runtimes-per-user", "10");
    }
  }

  @Inject
  SandboxClient sandboxes;

  @Inject
  TaskServiceFixture fixture;

  @Inject
  DockerClient docker;

  @Inject
  SandboxSettings settings;

  private final List<SandboxRef> tasks = new ArrayList<>();
  private final List<SandboxRef> homes = new ArrayList<>();
  private final List<SandboxRef> held = new ArrayList<>();

  @AfterEach
  void cleanUp() {
    held.forEach(ref -> sandboxes.call(SandboxSubjects.LEASE_RELEASE, new ReleaseRuntime(ref, "capacity-run")));
    homes.forEach(home -> sandboxes.call(SandboxSubjects.STOP, home));
    tasks.forEach(sandboxes::deleteQuietly);
  }

  private SandboxRef task() {
    SandboxRef ref = sandboxes.newTask("capacity-owner");
    tasks.add(ref);
    return ref;
  }

  private SandboxRef home() {
    SandboxRef ref = sandboxes.newHome("capacity");
    homes.add(ref);
    return ref;
  }

  private void use(SandboxRef ref) {
    sandboxes.call(SandboxSubjects.FILES_LIST, new ListFiles(ref, ""));
  }

  private void hold(SandboxRef ref) {
    sandboxes.call(SandboxSubjects.LEASE_HOLD, new HoldRuntime(ref, "capacity-run", 120_000, 0));
    held.add(ref);
  }

  private boolean running(SandboxRef ref) {
    return Boolean.TRUE.equals(docker.inspectContainerCmd(container(ref)).exec().getState().getRunning());
  }

  private String container(SandboxRef ref) {
    return SandboxKey.of(ref).container(settings.instance());
  }

  private boolean volumeExists(SandboxRef ref) {
    String name = SandboxKey.of(ref).volume(settings.instance());
    return docker.listVolumesCmd().exec().getVolumes().stream().anyMatch(v -> v.getName().equals(name));
  }

  private RuntimeUsage.Memory memory() {
    return sandboxes.call(SandboxSubjects.RUNTIME_USAGE, new RuntimeUsageQuery("capacity-owner")).memory();
  }

  @Test
  void aStartPastTheBudgetStopsTheLeastRecentlyUsedIdleSandboxAndBusyOnesAnswer429() {
    SandboxRef home = home();
    SandboxRef a = task();
    SandboxRef b = task();
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(home, "notes.txt", "the home's notes", null, false));
    use(a);
    use(b); // the home is now the least recently used of the three
    RuntimeUsage.Memory full = memory();
    assertThat(full.budgetBytes()).isEqualTo(768 * MIB);
    assertThat(full.reservedBytes()).isEqualTo(768 * MIB);
    assertThat(full.mine()).extracting(RuntimeUsage.SandboxMemory::taskId).containsExactlyInAnyOrder(a.taskId(), b.taskId());

    // The 4th start: the idle home makes room (homes and tasks share one ledger), its volume kept.
    SandboxRef c = task();
    assertThat(sandboxes.ensure(c).state()).isEqualTo("running");
    assertThat(running(home)).as("the least recently used idle sandbox was stopped").isFalse();
    assertThat(volumeExists(home)).isTrue();
    assertThat(running(a)).isTrue();
    assertThat(running(b)).isTrue();
    assertThat(memory().reservedBytes()).isEqualTo(768 * MIB);
    String metrics = io.restassured.RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
    assertThat(gauge(metrics, "workcell_sandbox_memory_budget_bytes")).isEqualTo(768d * MIB);
    assertThat(gauge(metrics, "workcell_sandbox_memory_reserved_bytes")).isEqualTo(768d * MIB);

    // Every running sandbox busy (a run holds each): the next start is refused, nothing is stopped.
    hold(a);
    hold(b);
    hold(c);
    WorkcellException refused = sandboxes.failure(SandboxSubjects.FILES_READ, new ReadFile(home, "notes.txt"));
    assertThat(refused.code()).isEqualTo(ErrorCode.RUNTIME_CAPACITY);
    assertThat(refused.code().httpStatus()).isEqualTo(429);
    assertThat(refused.getMessage()).contains("768 MiB of 768 MiB");
    assertThat(List.of(running(a), running(b), running(c))).containsOnly(true);
    assertThat(running(home)).isFalse();

    // A run that ends frees its sandbox for the next start, and the home's files are all there.
    sandboxes.call(SandboxSubjects.LEASE_RELEASE, new ReleaseRuntime(b, "capacity-run"));
    held.remove(b);
    assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(home, "notes.txt")).content())
        .isEqualTo("the home's notes");
    assertThat(running(b)).isFalse();
    assertThat(running(home)).isTrue();
  }

  private static double gauge(String metrics, String name) {
    var line = java.util.regex.Pattern.compile("^" + name + "(\\{[^}]*\\})? (\\S+)$", java.util.regex.Pattern.MULTILINE).matcher(metrics);
    assertThat(line.find()).as(name + " in /q/metrics").isTrue();
    return Double.parseDouble(line.group(2));
  }

  @Test
  void aSandboxBiggerThanTheWholeBudgetIsRefusedAtOnce() {
    SandboxRef huge = task();
    fixture.policy(huge.taskId(), "1g", null, null, true);
    WorkcellException refused = sandboxes.failure(SandboxSubjects.ENSURE, huge);
    assertThat(refused.code()).isEqualTo(ErrorCode.SANDBOX_TOO_LARGE);
    assertThat(refused.getMessage()).contains("1024 MiB").contains("768 MiB");
    assertThat(memory().reservedBytes()).as("nothing reserved").isZero();
  }

  @Test
  void everySandboxHasACpuWeightAndACpuLimitOnlyBelowTheHostsCores() {
    SandboxRef plain = task();
    SandboxRef capped = task();
    fixture.policy(capped.taskId(), null, "0.5", null, true);
    sandboxes.ensure(plain);
    sandboxes.ensure(capped);
    int cores = docker.infoCmd().exec().getNCPU();

    HostConfig plainHost = docker.inspectContainerCmd(container(plain)).exec().getHostConfig();
    assertThat(plainHost.getCpuShares()).isEqualTo(1024);
    // WORK_CPU_LIMIT (2 here) at or above the host's cores is no ceiling: the weight shares the host.
    assertThat(plainHost.getNanoCPUs()).isEqualTo(cores <= 2 ? 0L : 2_000_000_000L);

    HostConfig cappedHost = docker.inspectContainerCmd(container(capped)).exec().getHostConfig();
    assertThat(cappedHost.getCpuShares()).isEqualTo(1024);
    assertThat(cappedHost.getNanoCPUs()).isEqualTo(500_000_000L);
  }
}
