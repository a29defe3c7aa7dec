package dev.workcell.agent.run.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.agent.budget.service.RunnerBudget;
import dev.workcell.agent.provider.RoundListener;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.messaging.budget.ByteBudget;
import org.junit.jupiter.api.Test;

/** A round's answer against the runner's budget: a runner that holds too much refuses the next step. */
class HeldRoundTest {

  @Test
  void aRoundBeyondTheOwnersShareIsRefusedRateLimitedAndItsRoomComesBack() {
    ByteBudget budget = new ByteBudget("agent-runner", 1 << 20, 256 * 1024);
    RunnerBudget runner = new RunnerBudget(budget);
    HeldRound other = new HeldRound(RoundListener.NONE, runner.round("bob"), Long.MAX_VALUE);
    other.text("x".repeat(1000));
    String delta = "y".repeat(16 * 1024);
    try (HeldRound round = new HeldRound(RoundListener.NONE, runner.round("alice"), Long.MAX_VALUE)) {
      assertThatThrownBy(() -> {
        for (int i = 0; i < 100; i++) {
          round.text(delta);
        }
      }).isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.RATE_LIMITED));
      assertThat(budget.heldBy("account:alice")).isLessThanOrEqualTo(256 * 1024 + ByteBudget.Tally.STEP);
    }
    assertThat(budget.heldBy("account:alice")).isZero();
    assertThat(budget.heldBy("account:bob")).as("another owner's round is untouched").isEqualTo(ByteBudget.Tally.STEP);
    other.close();
    assertThat(budget.held()).isZero();
  }
}
