package dev.workcell.sandbox.files.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.nio.charset.StandardCharsets;

/**
 * Validates a workspace path before it reaches celld (which checks again, and confines at open
 * time): relative, at most 1024 UTF-8 bytes, no NUL, no backslash, no empty, "." or ".." segment.
 */
public final class WorkspacePath {

  /** The workspace root as celld names it. */
  public static final String ROOT = ".";

  private WorkspacePath() {}

  /** A path naming an entry below the root. */
  public static String entry(String path) {
    String clean = validate(path);
    if (ROOT.equals(clean)) {
      throw new WorkcellException(ErrorCode.INVALID_PATH, "a path below the workspace root is required");
    }
    return clean;
  }

  /** A directory path; empty or "." name the workspace root. */
  public static String directory(String path) {
    return validate(path);
  }

  private static String validate(String path) {
    if (path == null || path.isEmpty() || path.equals(".")) {
      return ROOT;
    }
    if (path.getBytes(StandardCharsets.UTF_8).length > Limits.PATH_MAX_BYTES) {
      throw invalid("path is longer than " + Limits.PATH_MAX_BYTES + " bytes");
    }
    if (path.indexOf('\0') >= 0) {
      throw invalid("path contains NUL");
    }
    if (path.indexOf('\\') >= 0) {
      throw invalid("path contains a backslash");
    }
    if (path.startsWith("/")) {
      throw invalid("path must be relative to the workspace");
    }
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw invalid("path has an empty, '.' or '..' segment");
      }
    }
    return path;
  }

  private static WorkcellException invalid(String message) {
    return new WorkcellException(ErrorCode.INVALID_PATH, message);
  }
}
