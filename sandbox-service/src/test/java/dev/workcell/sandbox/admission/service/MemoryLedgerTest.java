package dev.workcell.sandbox.admission.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.RuntimeUsage;
import dev.workcell.sandbox.admission.service.RuntimeAdmission.IdleSandbox;
import dev.workcell.sandbox.admission.service.RuntimeAdmission.Room;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The memory ledger in RuntimeAdmission: what fits, which idle sandbox goes first, racing starts, a sandbox too big. */
class MemoryLedgerTest {

  private static final long MIB = 1L << 20;

  private final AtomicLong now = new AtomicLong(1_000);
  /** Budget 768 MiB; caps high enough that only memory decides. */
  private final RuntimeAdmission ledger = new RuntimeAdmission(10, 10, 10, 16, now::get, new MemoryBudget(768 * MIB));

  private void start(String id, long mib) {
    if (id.startsWith("home")) {
      assertThat(ledger.admitHome(id)).isTrue();
    } else {
      ledger.admit(id, "owner");
    }
    assertThat(ledger.reserveMemory(id, mib * MIB)).isEqualTo(Room.RESERVED);
    now.addAndGet(10);
  }

  @Test
  void sandboxesStartWhileTheirLimitsFitAndTheNextFindsItFull() {
    start("a", 256);
    start("b", 256);
    start("home-c", 256);
    assertThat(ledger.reserveMemory("a", 256 * MIB)).as("a start of a sandbox already in the ledger").isEqualTo(Room.ALREADY_RESERVED);

    ledger.admit("d", "owner");
    assertThat(ledger.reserveMemory("d", 256 * MIB)).isEqualTo(Room.FULL);
    assertThat(ledger.reserveMemory("d", 64 * MIB)).as("nothing was reserved by the refusal").isEqualTo(Room.FULL);
    RuntimeUsage.Memory memory = ledger.memory("owner");
    assertThat(memory.budgetBytes()).isEqualTo(768 * MIB);
    assertThat(memory.reservedBytes()).isEqualTo(768 * MIB);
    assertThat(memory.sandboxes()).isEqualTo(3);
    assertThat(memory.mine()).extracting(RuntimeUsage.SandboxMemory::taskId).containsExactlyInAnyOrder("a", "b");

    // A stopped sandbox gives its memory back with its lease.
    ledger.release("b");
    assertThat(ledger.reserveMemory("d", 256 * MIB)).isEqualTo(Room.RESERVED);
    assertThat(ledger.memory("owner").reservedBytes()).isEqualTo(768 * MIB);
  }

  @Test
  void theLeastRecentlyUsedIdleSandboxIsOfferedFirstAndBusyOnesNever() {
    start("a", 128);
    start("home-b", 128);
    start("c", 128);
    start("d", 1); // used in this order: a, home-b, c, d
    ledger.begin("a"); // an operation in flight
    ledger.hold("c", "owner", "run-1", 60_000, 0); // a run's hold
    ledger.hold("d", "owner", RuntimeAdmission.PREVIEW, 0, 0); // a verified preview
    now.addAndGet(10);

    assertThat(ledger.idleByLastUse("new")).extracting(IdleSandbox::id).containsExactly("home-b");

    ledger.end("a"); // used now: more recently than c and d, less than home-b below
    now.addAndGet(10);
    ledger.touch("home-b");
    now.addAndGet(10);
    assertThat(ledger.idleByLastUse("new")).extracting(IdleSandbox::id).containsExactly("a", "home-b");
    assertThat(ledger.idleByLastUse("a")).extracting(IdleSandbox::id).containsExactly("home-b");

    // A run's hold that lapses leaves its sandbox idle, and c was last used before the others.
    now.addAndGet(60_000);
    assertThat(ledger.idleByLastUse("new")).extracting(IdleSandbox::id).containsExactly("c", "a", "home-b");
    assertThat(ledger.memory("owner").idleBytes()).isEqualTo(384 * MIB);
  }

  @Test
  void anIdleSandboxUsedAfterItWasChosenIsNotStopped() {
    start("a", 512);
    start("b", 256);
    IdleSandbox oldest = ledger.idleByLastUse("new").getFirst();
    assertThat(oldest.id()).isEqualTo("a");
    ledger.begin("a");
    ledger.end("a");
    assertThat(ledger.releaseIfUnchanged(oldest)).as("used since it was chosen").isFalse();

    IdleSandbox again = ledger.idleByLastUse("new").stream().filter(s -> s.id().equals("a")).findFirst().orElseThrow();
    assertThat(ledger.releaseIfUnchanged(again)).isTrue();
    assertThat(ledger.holds("a")).isFalse();
    assertThat(ledger.memory("owner").reservedBytes()).isEqualTo(256 * MIB);
  }

  @Test
  void twoRacingStartsNeverBothOvershoot() throws Exception {
    start("a", 256);
    int racers = 8;
    for (int i = 0; i < racers; i++) {
      ledger.admit("r" + i, "owner");
    }
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(racers);
    try {
      List<Future<Room>> rooms = new ArrayList<>();
      for (int i = 0; i < racers; i++) {
        String id = "r" + i;
        rooms.add(pool.submit(() -> {
          go.await();
          return ledger.reserveMemory(id, 256 * MIB);
        }));
      }
      go.countDown();
      int reserved = 0;
      for (Future<Room> room : rooms) {
        reserved += room.get() == Room.RESERVED ? 1 : 0;
      }
      assertThat(reserved).as("512 MiB were free: exactly two of eight 256 MiB starts fit").isEqualTo(2);
      assertThat(ledger.memory("owner").reservedBytes()).isEqualTo(768 * MIB);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFailedStartUnderARunsHoldGivesItsMemoryBack() {
    ledger.hold("a", "owner", "run-1", 60_000, 0);
    assertThat(ledger.reserveMemory("a", 512 * MIB)).isEqualTo(Room.RESERVED);
    ledger.releaseMemory("a");
    assertThat(ledger.holds("a")).as("the run keeps its slot").isTrue();
    assertThat(ledger.memory("owner").reservedBytes()).isZero();
    assertThat(ledger.idleByLastUse("new")).as("a sandbox that does not run is no candidate").isEmpty();
  }

  @Test
  void aSandboxBiggerThanTheWholeBudgetIsRefusedOutright() {
    ledger.admit("huge", "owner");
    assertThatThrownBy(() -> ledger.reserveMemory("huge", 1024 * MIB))
        .isInstanceOfSatisfying(WorkcellException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.SANDBOX_TOO_LARGE);
          assertThat(e.getMessage()).contains("1024 MiB").contains("768 MiB");
        });
    assertThat(ledger.reserveMemory("huge", 768 * MIB)).as("exactly the budget fits").isEqualTo(Room.RESERVED);
  }

  @Test
  void aSandboxUsedWithinTheEvictionMinimumIsInUseAndNotStoppedForAnother() {
    RuntimeAdmission quiet = new RuntimeAdmission(10, 10, 10, 16, now::get, new MemoryBudget(512 * MIB), 60_000);
    quiet.admit("worked-in", "owner");
    quiet.reserveMemory("worked-in", 256 * MIB);
    assertThat(quiet.admitHome("home-flood")).isTrue();
    quiet.reserveMemory("home-flood", 256 * MIB);
    now.addAndGet(100); // both read from 100 ms ago: nothing in flight, yet someone is working in them

    assertThat(quiet.idleByLastUse("new")).as("used 100 ms ago: in use").isEmpty();
    assertThat(quiet.memoryRefusal(256 * MIB)).contains("used in the last 60 s");

    now.addAndGet(59_000);
    quiet.touch("worked-in"); // still worked in
    now.addAndGet(1_000);
    assertThat(quiet.idleByLastUse("new")).as("quiet for 60 s").extracting(IdleSandbox::id).containsExactly("home-flood");
    IdleSandbox chosen = quiet.idleByLastUse("new").getFirst();
    assertThat(quiet.releaseIfUnchanged(chosen)).isTrue();
    assertThat(quiet.holds("worked-in")).isTrue();
  }

  @Test
  void aRefusalTellsWhenTheFirstSandboxMayBeStoppedUnlessEveryOneIsBusy() {
    RuntimeAdmission quiet = new RuntimeAdmission(10, 10, 10, 16, now::get, new MemoryBudget(768 * MIB), 10_000);
    quiet.admit("read-3s-ago", "owner");
    quiet.reserveMemory("read-3s-ago", 256 * MIB);
    assertThat(quiet.admitHome("home-read-1s-ago")).isTrue();
    quiet.reserveMemory("home-read-1s-ago", 256 * MIB);
    quiet.admit("running", "owner");
    quiet.reserveMemory("running", 256 * MIB);
    quiet.begin("running"); // an operation in flight: no quiet time tells when it ends
    now.addAndGet(2_000);
    quiet.touch("home-read-1s-ago");
    now.addAndGet(1_000);

    assertThat(quiet.secondsUntilEvictable(false)).as("read 3 s ago, minimum 10 s").hasValue(7);
    assertThat(quiet.secondsUntilEvictable(true)).as("its background processes kept the home running").isEmpty();
    quiet.begin("home-read-1s-ago");
    quiet.end("home-read-1s-ago"); // used again: quiet from now on, unless a check finds processes again
    assertThat(quiet.secondsUntilEvictable(true)).hasValue(10);

    now.addAndGet(9_500);
    assertThat(quiet.secondsUntilEvictable(false)).as("a candidate already: try again at once").hasValue(1);
    quiet.begin("read-3s-ago");
    quiet.begin("home-read-1s-ago");
    assertThat(quiet.secondsUntilEvictable(false)).as("every sandbox busy").isEmpty();
  }
}
