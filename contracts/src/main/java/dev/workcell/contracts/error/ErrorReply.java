package dev.workcell.contracts.error;

/** The body of a failed NATS reply (header {@code Workcell-Error} names the code). */
public record ErrorReply(String code, int status, String message) {

  public static ErrorReply of(WorkcellException e) {
    return new ErrorReply(e.code().code(), e.code().httpStatus(), e.getMessage());
  }

  public WorkcellException toException() {
    return new WorkcellException(ErrorCode.fromCode(code), message);
  }
}
