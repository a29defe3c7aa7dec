package dev.workcell.sandbox.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RequestQueueBudgetTest {

  private static final long MIB = 1 << 20;

  @Test
  void anEmptyQueueTakesOneFrameLargerThanTheLimitButNothingAfterIt() throws RequestQueueFull {
    RequestQueueBudget budget = new RequestQueueBudget(4 * MIB, 64 * MIB);
    RequestQueueBudget.Share share = budget.share();
    share.take(8 * MIB);
    assertThatThrownBy(() -> share.take(1)).isInstanceOf(RequestQueueFull.class).hasMessageContaining("limit " + 4 * MIB);
    share.give(8 * MIB);
    share.take(3 * MIB);
    share.take(MIB);
    assertThatThrownBy(() -> share.take(1)).isInstanceOf(RequestQueueFull.class);
    assertThat(budget.used()).isEqualTo(4 * MIB);
  }

  @Test
  void theServiceWideLimitRefusesEvenAnEmptyQueue() throws RequestQueueFull {
    RequestQueueBudget budget = new RequestQueueBudget(4 * MIB, 10 * MIB);
    RequestQueueBudget.Share stalled = budget.share();
    stalled.take(8 * MIB);
    RequestQueueBudget.Share other = budget.share();
    assertThatThrownBy(() -> other.take(3 * MIB)).isInstanceOf(RequestQueueFull.class).hasMessageContaining("service-wide");
    assertThat(other.queued()).isZero();
    other.take(2 * MIB);
    stalled.giveAll();
    assertThat(budget.used()).isEqualTo(2 * MIB);
  }

  @Test
  void givingBackMoreThanIsHeldReleasesOnlyWhatIsHeld() throws RequestQueueFull {
    RequestQueueBudget budget = new RequestQueueBudget(4 * MIB, 10 * MIB);
    RequestQueueBudget.Share share = budget.share();
    share.take(MIB);
    share.giveAll();
    share.give(MIB);
    assertThat(budget.used()).isZero();
    assertThat(share.queued()).isZero();
  }
}
