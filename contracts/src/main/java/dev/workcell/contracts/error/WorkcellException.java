package dev.workcell.contracts.error;

import java.util.Objects;

/** A failure that crosses a boundary: it always carries a stable {@link ErrorCode}. */
public class WorkcellException extends RuntimeException {

  private final ErrorCode code;

  public WorkcellException(ErrorCode code, String message) {
    super(message == null || message.isBlank() ? code.title() : message);
    this.code = Objects.requireNonNull(code, "code");
  }

  public WorkcellException(ErrorCode code, String message, Throwable cause) {
    this(code, message);
    initCause(cause);
  }

  public ErrorCode code() {
    return code;
  }
}
