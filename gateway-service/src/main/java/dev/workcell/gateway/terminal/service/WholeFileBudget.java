package dev.workcell.gateway.terminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.gateway.problem.RetryLaterException;
import dev.workcell.gateway.terminal.config.TerminalSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of whole files the gateway may hold at once. Each file assembled in memory takes its
 * size (twice: the buffer and the answer copied from it) before the first chunk is fetched and
 * gives it back when the answer is built, so concurrent reads cannot exhaust the heap.
 */
@ApplicationScoped
public class WholeFileBudget {

  private static final long RETRY_AFTER_SECONDS = 1;

  private final long limit;
  private final AtomicLong held = new AtomicLong();

  @Inject
  public WholeFileBudget(TerminalSettings settings) {
    this(settings.wholeFileBudgetBytes());
  }

  WholeFileBudget(long limit) {
    this.limit = limit;
  }

  /** Takes room for a file of {@code size} bytes and returns what to give back, or refuses with 429 {@code rate_limited}. */
  public long take(long size) {
    long bytes = 2 * Math.max(size, 0);
    long now = held.addAndGet(bytes);
    if (now > limit && now != bytes) { // one file alone always fits (its size is capped elsewhere)
      held.addAndGet(-bytes);
      throw new RetryLaterException(ErrorCode.RATE_LIMITED,
          "the gateway is holding other large files; retry after " + RETRY_AFTER_SECONDS + " s", RETRY_AFTER_SECONDS);
    }
    return bytes;
  }

  public void give(long bytes) {
    held.addAndGet(-bytes);
  }
}
