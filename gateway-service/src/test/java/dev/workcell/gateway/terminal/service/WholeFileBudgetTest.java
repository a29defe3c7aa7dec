package dev.workcell.gateway.terminal.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.gateway.problem.RetryLaterException;
import org.junit.jupiter.api.Test;

class WholeFileBudgetTest {

  @Test
  void concurrentWholeFilesBeyondTheBudgetAreRefusedUntilOneIsDone() {
    WholeFileBudget budget = new WholeFileBudget(100);
    long first = budget.take(30); // 60 with the copy
    assertThatThrownBy(() -> budget.take(30)).isInstanceOfSatisfying(RetryLaterException.class, e -> {
      assertThat(e.code()).isEqualTo(ErrorCode.RATE_LIMITED);
      assertThat(e.retryAfterSeconds()).isPositive();
    });
    long second = budget.take(20);
    budget.give(first);
    budget.give(budget.take(30));
    budget.give(second);
  }

  @Test
  void oneFileAloneAlwaysFits() {
    WholeFileBudget budget = new WholeFileBudget(100);
    long big = budget.take(80);
    assertThatThrownBy(() -> budget.take(1)).isInstanceOf(RetryLaterException.class);
    budget.give(big);
    budget.give(budget.take(1));
  }
}
