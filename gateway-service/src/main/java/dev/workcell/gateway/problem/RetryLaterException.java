package dev.workcell.gateway.problem;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;

/** A refusal that knows when trying again is worth it; the problem answer carries it as Retry-After. */
public class RetryLaterException extends WorkcellException {

  private final long retryAfterSeconds;

  public RetryLaterException(ErrorCode code, String message, long retryAfterSeconds) {
    super(code, message);
    this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
  }

  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
