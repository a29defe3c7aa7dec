package dev.workcell.gateway.file.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.WritePart;
import java.util.regex.Pattern;

/**
 * One part of a file written in parts (the Work API's {@code PUT …/file/part} and Open Terminal's
 * {@code POST …/files/upload/part}; restores from the mirror): the query values parsed by hand, so
 * a bad one is a 400 problem rather than JAX-RS's 404, and the body of at most 2,000,000 bytes.
 */
public record FilePart(String upload, long offset, byte[] data, boolean last, Integer mode) {

  private static final Pattern UPLOAD_ID = Pattern.compile("[0-9a-f]{16,64}");

  public static FilePart of(String upload, String offset, String last, String mode, byte[] body) {
    if (upload == null || !UPLOAD_ID.matcher(upload).matches()) {
      throw invalid("upload must be 16..64 lowercase hex digits (the same for every part of one file)");
    }
    byte[] data = body == null ? new byte[0] : body; // an empty body (an empty file's one part)
    if (data.length > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, "a part holds at most " + Limits.FILE_MAX_BYTES + " bytes");
    }
    long from = number("offset", offset, Long.MAX_VALUE, 10);
    if (last != null && !last.equals("true") && !last.equals("false")) {
      throw invalid("last must be true or false");
    }
    Integer bits = mode == null ? null : (int) number("mode", mode, 0777, 8);
    return new FilePart(upload, from, data, "true".equals(last), bits);
  }

  /** The request for sandbox-service; parents are created with the first part. */
  public WritePart to(SandboxRef sandbox, String path) {
    return new WritePart(sandbox, path, upload, offset, data, last, true, mode);
  }

  private static long number(String name, String value, long max, int radix) {
    try {
      long parsed = Long.parseLong(value == null ? "" : value, radix);
      if (parsed >= 0 && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw invalid(name + " must be " + (radix == 8 ? "octal permission bits 0..777" : "a byte offset ≥ 0"));
  }

  private static WorkcellException invalid(String message) {
    return new WorkcellException(ErrorCode.INVALID_REQUEST, message);
  }
}
