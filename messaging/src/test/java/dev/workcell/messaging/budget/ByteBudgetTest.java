package dev.workcell.messaging.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import org.junit.jupiter.api.Test;

class ByteBudgetTest {

  private static void rateLimited(Runnable take) {
    assertThatThrownBy(take::run).isInstanceOfSatisfying(WorkcellException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.RATE_LIMITED));
  }

  @Test
  void aUserBeyondTheirShareIsRefusedWhileOthersStillFit() {
    ByteBudget budget = new ByteBudget("test", 100, 25);
    budget.take("alice", 20);
    rateLimited(() -> budget.take("alice", 10));
    assertThat(budget.heldBy("alice")).isEqualTo(20);
    budget.take("bob", 25);
    assertThat(budget.held()).isEqualTo(45);
    assertThat(budget.refused()).isEqualTo(1);
  }

  @Test
  void theServiceLimitHoldsAcrossUsersAndRefusedTakesHoldNothing() {
    ByteBudget budget = new ByteBudget("test", 100, 40);
    budget.take("a", 40);
    budget.take("b", 40);
    rateLimited(() -> budget.take("c", 30));
    assertThat(budget.held()).isEqualTo(80);
    assertThat(budget.heldBy("c")).isZero();
    assertThat(budget.available()).isEqualTo(20);
  }

  @Test
  void oneTakeAloneAlwaysFitsEvenBeyondTheShare() {
    ByteBudget budget = new ByteBudget("test", 100, 25);
    ByteBudget.Hold big = budget.take("alice", 150);
    assertThat(budget.exhausted()).isTrue();
    rateLimited(() -> budget.take("bob", 1));
    big.close();
    assertThat(budget.exhausted()).isFalse();
    budget.take("bob", 1);
  }

  @Test
  void closingTwiceGivesBackOnce() {
    ByteBudget budget = new ByteBudget("test", 100, 50);
    ByteBudget.Hold first = budget.take("alice", 30);
    budget.take("alice", 10);
    first.close();
    first.close();
    assertThat(budget.held()).isEqualTo(10);
    assertThat(budget.heldBy("alice")).isEqualTo(10);
  }

  @Test
  void readinessIsDownWithAStableReasonWhileExhausted() {
    ByteBudget budget = new ByteBudget("test", 100, 100);
    assertThat(ByteBudgetHealth.of(budget).getStatus().name()).isEqualTo("UP");
    ByteBudget.Hold hold = budget.take("alice", 95);
    var down = ByteBudgetHealth.of(budget);
    assertThat(down.getStatus().name()).isEqualTo("DOWN");
    assertThat(down.getData().orElseThrow()).containsEntry("reason", ByteBudgetHealth.EXHAUSTED);
    hold.close();
    assertThat(ByteBudgetHealth.of(budget).getStatus().name()).isEqualTo("UP");
  }

  @Test
  void aTallyTakesRoomInStepsAsItGrowsAndGivesAllOfItBack() {
    long step = ByteBudget.Tally.STEP;
    ByteBudget budget = new ByteBudget("test", 10 * step, 3 * step);
    ByteBudget.Tally tally = budget.tally("alice");
    tally.add(10);
    assertThat(budget.heldBy("alice")).as("one step for the first bytes").isEqualTo(step);
    tally.add(step);
    assertThat(budget.heldBy("alice")).isEqualTo(2 * step);
    tally.add(step - 10);
    assertThat(budget.heldBy("alice")).as("within what is taken: no new step").isEqualTo(2 * step);
    tally.add(step);
    rateLimited(() -> tally.add(step));
    assertThat(budget.heldBy("alice")).as("the refused step holds nothing").isEqualTo(3 * step);
    tally.close();
    tally.close();
    assertThat(budget.held()).isZero();
  }
}
