package dev.workcell.agent.run.service;

import dev.workcell.agent.budget.service.RunnerBudget;
import dev.workcell.agent.provider.RoundListener;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.messaging.budget.ByteBudget;

/**
 * Counts a round's answer as it streams, before it is passed on: past {@code maxChars} the round is
 * cut ({@code provider_error}), and room for it is taken from the runner's budget ({@code
 * rate_limited} when the runner or the owner holds too much). Throwing here ends the provider's
 * stream, so what a runaway model sends is never held beyond the limit. Closed when the round ends.
 */
final class HeldRound implements RoundListener, AutoCloseable {

  private final RoundListener next;
  private final ByteBudget.Tally room;
  private final long maxChars;
  private long chars;

  HeldRound(RoundListener next, ByteBudget.Tally room, long maxChars) {
    this.next = next;
    this.room = room;
    this.maxChars = maxChars;
  }

  @Override
  public void reasoning(String delta) {
    count(delta);
    next.reasoning(delta);
  }

  @Override
  public void text(String delta) {
    count(delta);
    next.text(delta);
  }

  private void count(String delta) {
    chars += delta.length();
    if (chars > maxChars) {
      throw new WorkcellException(ErrorCode.PROVIDER_ERROR,
          "the model's answer passed " + maxChars + " characters in one round; the round was cut");
    }
    room.add((long) delta.length() * RunnerBudget.BYTES_PER_CHAR);
  }

  @Override
  public void close() {
    room.close();
  }
}
