package dev.workcell.contracts.error;

/**
 * The body of a failed NATS reply (header {@code Workcell-Error} names the code). {@code retryAfterSeconds}
 * is set when the refusing service knows when trying again is worth it, else null (the code's usual wait).
 */
public record ErrorReply(String code, int status, String message, Long retryAfterSeconds) {

  public static ErrorReply of(WorkcellException e) {
    Long retryAfter = e instanceof RetryLaterException later ? later.retryAfterSeconds() : null;
    return new ErrorReply(e.code().code(), e.code().httpStatus(), e.getMessage(), retryAfter);
  }

  public WorkcellException toException() {
    ErrorCode errorCode = ErrorCode.fromCode(code);
    return retryAfterSeconds == null ? new WorkcellException(errorCode, message)
        : new RetryLaterException(errorCode, message, retryAfterSeconds);
  }
}
