package dev.workcell.sandbox.admission.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Runtime caps (global 3, per owner 2 by default) answer too_many_runtimes; nested use is free. */
@QuarkusTest
class RuntimeAdmissionTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  RuntimeAdmission admission;

  @Test
  void perOwnerAndGlobalCapsAnswerTooManyRuntimes() {
    SandboxRef shared = sandboxes.shared();
    List<SandboxRef> started = new ArrayList<>();
    try {
      int free = 3 - admission.active();
      assertThat(free).as("the shared sandbox should be the only active one").isEqualTo(2);
      SandboxRef bob1 = sandboxes.newTask("bob-admission");
      SandboxRef bob2 = sandboxes.newTask("bob-admission");
      sandboxes.ensure(bob1);
      started.add(bob1);
      sandboxes.ensure(bob2);
      started.add(bob2);

      SandboxRef bob3 = sandboxes.newTask("bob-admission");
      var perUser = sandboxes.failure(SandboxSubjects.ENSURE, bob3);
      assertThat(perUser.code()).isEqualTo(ErrorCode.TOO_MANY_RUNTIMES);
      assertThat(perUser.code().httpStatus()).isEqualTo(429);

      SandboxRef carol = sandboxes.newTask("carol-admission");
      var global = sandboxes.failure(SandboxSubjects.FILES_LIST, new ListFiles(carol, ""));
      assertThat(global.code()).isEqualTo(ErrorCode.TOO_MANY_RUNTIMES);

      // Operations on tasks that already hold their lease still run at the cap.
      sandboxes.call(SandboxSubjects.FILES_LIST, new ListFiles(shared, ""));
      sandboxes.ensure(bob1);

      sandboxes.call(SandboxSubjects.STOP, bob2);
      sandboxes.call(SandboxSubjects.FILES_LIST, new ListFiles(carol, ""));
      started.add(carol);
    } finally {
      started.forEach(sandboxes::deleteQuietly);
    }
  }

  @Test
  void aTaskHoldsOneLeaseHoweverManyOperationsRun() {
    AtomicLong now = new AtomicLong(1_000);
    RuntimeAdmission caps = new RuntimeAdmission(2, 1, 1, now::get);
    assertThat(caps.admit("a", "owner")).isTrue();
    assertThat(caps.admit("a", "owner")).isFalse();
    assertThat(caps.begin("a")).isTrue();
    assertThat(caps.begin("a")).isTrue();
    assertThat(caps.active()).isEqualTo(1);
    assertThatThrownBy(() -> caps.admit("b", "owner")).isInstanceOfSatisfying(WorkcellException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.TOO_MANY_RUNTIMES));
    assertThat(caps.admit("b", "other")).isTrue();
    assertThatThrownBy(() -> caps.admit("c", "third")).isInstanceOf(WorkcellException.class);

    now.addAndGet(10_000);
    assertThat(caps.idleTasks(5_000)).containsExactly("b");
    assertThat(caps.releaseIfIdle("a", 5_000)).isFalse();
    caps.end("a");
    caps.end("a");
    assertThat(caps.releaseIfIdle("a", 5_000)).isFalse();
    now.addAndGet(5_000);
    assertThat(caps.releaseIfIdle("a", 5_000)).isTrue();
    assertThat(caps.holds("a")).isFalse();
  }

  @Test
  void aHoldKeepsItsSlotUntilReleasedOrUntilItLapsesUnrenewed() {
    AtomicLong now = new AtomicLong(1_000);
    RuntimeAdmission caps = new RuntimeAdmission(1, 1, 1, now::get);
    assertThat(caps.hold("a", "owner", "run-1", 30_000, 0)).isCompleted();
    now.addAndGet(20_000);
    assertThat(caps.idleTasks(0)).as("held by its run").isEmpty();
    assertThat(caps.hold("a", "owner", "run-1", 30_000, 0)).as("renewed").isCompleted();
    now.addAndGet(20_000);
    assertThat(caps.idleTasks(0)).isEmpty();
    now.addAndGet(11_000); // 31 s after the renewal: the runner died
    assertThat(caps.idleTasks(0)).containsExactly("a");

    assertThat(caps.hold("a", "owner", "run-2", 30_000, 0)).isCompleted();
    caps.releaseHold("a", "run-2");
    assertThat(caps.idleTasks(0)).containsExactly("a");
    assertThat(caps.hold("b", "other", "run-3", 30_000, 0)).as("the instance's one slot is a's")
        .isCompletedExceptionally();
    assertThat(caps.releaseIfIdle("a", 0)).isTrue();
    assertThat(caps.hold("b", "other", "run-3", 30_000, 0)).isCompleted();
  }

  @Test
  void homesHaveTheirOwnPoolAndHandOverTheSlotOfTheLeastRecentlyUsedIdleOne() {
    AtomicLong now = new AtomicLong(1_000);
    RuntimeAdmission caps = new RuntimeAdmission(1, 1, 2, now::get);
    assertThat(caps.admit("task", "owner")).isTrue();
    // The Work cap (1) is full, yet homes start: they never take a Work slot, nor Work one of theirs.
    assertThat(caps.admitHome("home-a")).isTrue();
    now.addAndGet(10);
    assertThat(caps.admitHome("home-b")).isTrue();
    assertThat(caps.admitHome("home-c")).isFalse();
    assertThat(caps.active()).isEqualTo(1);
    assertThat(caps.activeHomes()).isEqualTo(2);
    assertThat(caps.idleTasks(0)).containsExactly("task");
    assertThat(caps.idleHomes(0)).containsExactlyInAnyOrder("home-a", "home-b");

    assertThat(caps.idleHomesByAge()).extracting(RuntimeAdmission.IdleHome::id).containsExactly("home-a", "home-b");
    RuntimeAdmission.IdleHome oldest = caps.idleHomesByAge().getFirst();
    // Used after it was picked: it is not idle any more, so its slot is not handed over.
    now.addAndGet(10);
    assertThat(caps.begin("home-a")).isTrue();
    caps.end("home-a");
    assertThat(caps.transferHome(oldest, "home-c")).isFalse();
    assertThat(caps.idleHomesByAge()).extracting(RuntimeAdmission.IdleHome::id).containsExactly("home-b", "home-a");

    caps.begin("home-b");
    assertThat(caps.idleHomesByAge()).extracting(RuntimeAdmission.IdleHome::id).containsExactly("home-a");
    RuntimeAdmission.IdleHome idle = caps.idleHomesByAge().getFirst();
    assertThat(caps.transferHome(idle, "home-c")).isTrue();
    assertThat(caps.holds("home-a")).isFalse();
    assertThat(caps.holds("home-c")).isTrue();
    assertThat(caps.activeHomes()).isEqualTo(2);
    assertThat(caps.holds("task")).isTrue();
  }

  @Test
  void aHomeUsedWithinTheEvictionMinimumKeepsItsSlot() {
    AtomicLong now = new AtomicLong(1_000);
    RuntimeAdmission caps = new RuntimeAdmission(1, 1, 1, 16, now::get, new MemoryBudget(Long.MAX_VALUE), 60_000);
    assertThat(caps.admitHome("home-a")).isTrue();
    caps.begin("home-a");
    caps.end("home-a");
    now.addAndGet(30_000);
    assertThat(caps.admitHome("home-b")).isFalse();
    assertThat(caps.idleHomesByAge()).as("used 30 s ago: its user is still at work").isEmpty();

    now.addAndGet(30_000);
    RuntimeAdmission.IdleHome quiet = caps.idleHomesByAge().getFirst();
    assertThat(quiet.id()).isEqualTo("home-a");
    caps.begin("home-a");
    caps.end("home-a");
    assertThat(caps.transferHome(quiet, "home-b")).as("used again after it was chosen").isFalse();
    now.addAndGet(60_000);
    assertThat(caps.transferHome(caps.idleHomesByAge().getFirst(), "home-b")).isTrue();
    assertThat(caps.holds("home-b")).isTrue();
  }
}
