package dev.workcell.sandbox.budget.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.messaging.budget.ByteBudget;
import dev.workcell.messaging.budget.Held;
import io.smallrye.mutiny.Uni;
import org.junit.jupiter.api.Test;

class SandboxBudgetTest {

  private static final SandboxRef ALICE_TASK = new SandboxRef("t1", "alice");
  private static final SandboxRef ALICE_HOME = SandboxRef.home("alice");

  @Test
  void aReplyHoldsItsRoomUntilSentAndAReplyBeyondTheShareIsRefused() {
    SandboxBudget budget = new SandboxBudget(new ByteBudget("test", 1_000, 500));
    Held<String> first = budget.reply(ALICE_TASK, Uni.createFrom().item("x".repeat(200)), String::length)
        .await().indefinitely();
    assertThat(budget.budget().heldBy("owner:alice")).isEqualTo(SandboxBudget.REPLY_COPIES * 200L);
    assertThatThrownBy(() -> budget.reply(ALICE_TASK, Uni.createFrom().item("y".repeat(100)), String::length)
        .await().indefinitely())
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.RATE_LIMITED));
    // A home is another key than the same user's task sandbox.
    budget.reply(ALICE_HOME, Uni.createFrom().item("z".repeat(100)), String::length).await().indefinitely().hold().close();
    first.hold().close();
    assertThat(budget.budget().held()).isZero();
  }

  @Test
  void aWriteHoldsUntilItEndsFailedOrNot() {
    SandboxBudget budget = new SandboxBudget(new ByteBudget("test", 1_000, 1_000));
    Uni<String> write = budget.whileHolding(ALICE_TASK, 400, () -> Uni.createFrom().failure(new IllegalStateException("celld gone")));
    assertThat(budget.budget().held()).isEqualTo(400);
    assertThatThrownBy(() -> write.await().indefinitely()).isInstanceOf(IllegalStateException.class);
    assertThat(budget.budget().held()).isZero();
  }
}
