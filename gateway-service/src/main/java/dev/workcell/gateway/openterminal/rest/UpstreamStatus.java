package dev.workcell.gateway.openterminal.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;

/**
 * Open Terminal checks {@code isfile}/{@code isdir} first and answers a file/directory mix-up as not
 * found (404), where celld names the mix-up (400); clients such as OpenWebUI's file browser branch on 404.
 */
final class UpstreamStatus {

  private UpstreamStatus() {}

  /** For an operation on a file: a directory or a special file there is "File not found". */
  static Throwable fileExpected(Throwable failure) {
    if (failure instanceof WorkcellException known
        && (known.code() == ErrorCode.IS_A_DIRECTORY || known.code() == ErrorCode.NOT_REGULAR_FILE)) {
      return new WorkcellException(ErrorCode.NOT_FOUND, "File not found");
    }
    return failure;
  }

  /** For an operation on a directory: a file there (or on the way) is {@code detail}, a 404. */
  static Throwable directoryExpected(Throwable failure, String detail) {
    if (failure instanceof WorkcellException known && (known.code() == ErrorCode.NOT_A_DIRECTORY
        || known.code() == ErrorCode.NOT_FOUND)) {
      return new WorkcellException(ErrorCode.NOT_FOUND, detail);
    }
    return failure;
  }
}
