package dev.workcell.gateway.task.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.gateway.task.config.OwnershipSettings;
import dev.workcell.gateway.task.service.TaskSandboxes.CallerSandbox;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OwnershipChecksTest {

  private static final Actor ALICE = new Actor("u-alice", Actor.Role.USER);
  private static final OwnershipChecks.Key KEY = new OwnershipChecks.Key("u-alice", Actor.Role.USER, "t-1");
  private static final CallerSandbox SANDBOX = new CallerSandbox(ALICE, new SandboxRef("t-1", "u-alice"));

  /** task-service as a counter: every subscription is one ask. */
  private final AtomicInteger asks = new AtomicInteger();
  private volatile RuntimeException answer;

  private Uni<CallerSandbox> check() {
    return Uni.createFrom().item(() -> {
      asks.incrementAndGet();
      if (answer != null) {
        throw answer;
      }
      return SANDBOX;
    });
  }

  private static OwnershipChecks checks(Duration reuseFor, Duration recheckAfter) {
    return new OwnershipChecks(new OwnershipSettings() {
      public Duration reuseFor() { return reuseFor; }
      public Duration recheckAfter() { return recheckAfter; }
      public int maxEntries() { return 100; }
    });
  }

  private CallerSandbox ask(OwnershipChecks checks) {
    return checks.reuseOr(KEY, check()).await().atMost(Duration.ofSeconds(5));
  }

  @Test
  void aGrantIsReusedWithinItsTimeAndAskedAgainAfter() throws InterruptedException {
    OwnershipChecks checks = checks(Duration.ofMillis(300), Duration.ofMillis(300));
    assertEquals(SANDBOX, ask(checks));
    assertEquals(SANDBOX, ask(checks));
    assertEquals(1, asks.get(), "the second request reused the first answer");
    Thread.sleep(350);
    ask(checks);
    assertEquals(2, asks.get(), "an answer older than reuse-for is not reused");
  }

  @Test
  void zeroAsksEveryTime() {
    OwnershipChecks checks = checks(Duration.ZERO, Duration.ZERO);
    ask(checks);
    ask(checks);
    assertEquals(2, asks.get());
    assertEquals(0, checks.size());
  }

  @Test
  void aRevocationOfTheAccountOrTaskIsHeardAtOnce() {
    OwnershipChecks checks = checks(Duration.ofMinutes(1), Duration.ofMinutes(1));
    ask(checks);
    checks.forgetAccount("u-bob");
    checks.forgetTask("t-2");
    ask(checks);
    assertEquals(1, asks.get(), "another account's or task's revocation keeps alice's answer");
    checks.forgetAccount("u-alice");
    ask(checks);
    assertEquals(2, asks.get());
    checks.forgetTask("t-1");
    ask(checks);
    assertEquals(3, asks.get());
    checks.forgetAll();
    answer = new WorkcellException(ErrorCode.ACCOUNT_DISABLED, "the account is disabled");
    assertThrows(WorkcellException.class, () -> ask(checks));
    assertEquals(0, checks.size(), "a refusal is not kept");
  }

  @Test
  void aRefusingRecheckEndsTheReuse() throws InterruptedException {
    OwnershipChecks checks = checks(Duration.ofMinutes(1), Duration.ofMillis(50));
    ask(checks);
    Thread.sleep(80);
    answer = new WorkcellException(ErrorCode.NOT_FOUND, "no such task");
    assertEquals(SANDBOX, ask(checks), "the old answer serves while the recheck runs");
    assertEquals(2, asks.get(), "the recheck ran");
    assertThrows(WorkcellException.class, () -> ask(checks), "the recheck's refusal is not reused away");
    assertEquals(3, asks.get());
  }

  @Test
  void anUnavailableTaskServiceDuringARecheckKeepsTheAnswerUntilItsTime() throws InterruptedException {
    OwnershipChecks checks = checks(Duration.ofMinutes(1), Duration.ofMillis(50));
    ask(checks);
    Thread.sleep(80);
    answer = new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "task-service is restarting");
    assertEquals(SANDBOX, ask(checks));
    assertEquals(SANDBOX, ask(checks), "not a refusal: still reused, and checked again");
    assertEquals(3, asks.get());
  }

  @Test
  void aCheckOnItsWayWhenARevocationCameIsNotKept() {
    OwnershipChecks checks = checks(Duration.ofMinutes(1), Duration.ofMinutes(1));
    AtomicReference<UniEmitter<? super CallerSandbox>> pending = new AtomicReference<>();
    Uni<CallerSandbox> slow = Uni.createFrom().<CallerSandbox>emitter(pending::set);
    AtomicReference<CallerSandbox> got = new AtomicReference<>();
    checks.reuseOr(KEY, slow).subscribe().with(got::set);
    checks.forgetAccount("u-alice"); // committed while the check was on its way
    pending.get().complete(SANDBOX);
    assertEquals(SANDBOX, got.get(), "the request itself is answered as task-service said then");
    ask(checks);
    assertEquals(1, asks.get(), "but the next request asks again");
  }
}
