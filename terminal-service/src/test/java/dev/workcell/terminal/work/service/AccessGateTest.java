package dev.workcell.terminal.work.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The Work terminal's check before each input, with checks the test answers by hand. */
class AccessGateTest {

  private final List<CompletableFuture<Void>> checks = new ArrayList<>();
  private final AtomicReference<ErrorCode> revoked = new AtomicReference<>();
  private final AccessGate gate = new AccessGate(() -> {
    CompletableFuture<Void> check = new CompletableFuture<>();
    checks.add(check);
    return Uni.createFrom().completionStage(check);
  }, revoked::set);

  @Test
  void aKeystrokeGoesAtOnceAndTheNextWaitsForTheCheckItStarted() {
    AtomicInteger ready = new AtomicInteger();
    assertThat(gate.admit(ready::incrementAndGet)).as("the grant was checked at the open").isTrue();
    gate.sent();
    assertThat(checks).as("the input started a check").hasSize(1);
    assertThat(gate.admit(ready::incrementAndGet)).as("the next input waits for it").isFalse();
    assertThat(checks).as("one check in flight, not one per keystroke").hasSize(1);
    checks.get(0).complete(null);
    assertThat(ready).hasValue(1);
    assertThat(gate.admit(ready::incrementAndGet)).isTrue();
  }

  @Test
  void inputThatWentDuringACheckNeedsACheckStartedAfterIt() {
    gate.tick(); // the periodic check is out when a keystroke goes
    assertThat(gate.admit(() -> {})).isTrue();
    gate.sent();
    checks.get(0).complete(null); // started before the keystroke: proves nothing about it
    assertThat(checks).as("a new check for the keystroke").hasSize(2);
    assertThat(gate.admit(() -> {})).isFalse();
    checks.get(1).complete(null);
    assertThat(gate.admit(() -> {})).isTrue();
  }

  @Test
  void aRevocationClosesTheGateForGoodAndHeldInputNeverGoes() {
    AtomicInteger ready = new AtomicInteger();
    gate.sent();
    assertThat(gate.admit(ready::incrementAndGet)).isFalse();
    checks.get(0).completeExceptionally(new WorkcellException(ErrorCode.ACCOUNT_DISABLED, "disabled"));
    assertThat(revoked).hasValue(ErrorCode.ACCOUNT_DISABLED);
    assertThat(ready).as("held input is dropped").hasValue(0);
    assertThat(gate.closed()).isTrue();
    assertThat(gate.admit(ready::incrementAndGet)).isFalse();
  }

  @Test
  void aCheckThatCannotBeAnsweredHoldsInputUntilOnePasses() {
    AtomicInteger ready = new AtomicInteger();
    gate.sent();
    assertThat(gate.admit(ready::incrementAndGet)).isFalse();
    checks.get(0).completeExceptionally(new WorkcellException(ErrorCode.UPSTREAM_TIMEOUT, "task-service is away"));
    assertThat(revoked).hasValue(null);
    assertThat(ready).hasValue(0);
    assertThat(checks).as("no retry in a tight loop").hasSize(1);
    gate.tick();
    checks.get(1).complete(null);
    assertThat(ready).hasValue(1);
    assertThat(gate.admit(() -> {})).isTrue();
  }
}
