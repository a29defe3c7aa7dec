package dev.workcell.task.support;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import io.smallrye.mutiny.Uni;

/** Short forms of the failures every feature answers with. */
public final class Failures {

  private Failures() {}

  public static WorkcellException error(ErrorCode code, String message) {
    return new WorkcellException(code, message);
  }

  public static <T> Uni<T> fail(ErrorCode code, String message) {
    return Uni.createFrom().failure(new WorkcellException(code, message));
  }

  /** Another owner's task is reported exactly like a missing one. */
  public static WorkcellException taskNotFound() {
    return new WorkcellException(ErrorCode.NOT_FOUND, "no such task");
  }

  public static WorkcellException invalid(String message) {
    return new WorkcellException(ErrorCode.INVALID_REQUEST, message);
  }
}
