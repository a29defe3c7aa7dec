package dev.workcell.contracts.error;

/**
 * A refusal that knows when trying again is worth it: the gateway's problem answer carries it as
 * {@code Retry-After}, and an {@link ErrorReply} carries it from the service that refused.
 */
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
