package dev.workcell.sandbox.celld.client;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Maps celld's error replies to contract codes. celld runs inside the sandbox, so only the codes
 * of its own vocabulary pass; anything else (say, a forged {@code safe_mode}) becomes {@code internal}.
 */
final class CelldErrors {

  private static final Set<ErrorCode> CELLD_CODES = Set.of(
      ErrorCode.INVALID_PATH, ErrorCode.PATH_ESCAPE, ErrorCode.NOT_FOUND, ErrorCode.ALREADY_EXISTS,
      ErrorCode.NOT_A_DIRECTORY, ErrorCode.IS_A_DIRECTORY, ErrorCode.DIRECTORY_NOT_EMPTY, ErrorCode.NOT_UTF8,
      ErrorCode.FILE_TOO_LARGE, ErrorCode.NOT_REGULAR_FILE, ErrorCode.CONFLICT, ErrorCode.INVALID_ARGUMENT,
      ErrorCode.TIMEOUT, ErrorCode.CANCELLED, ErrorCode.PREVIEW_NOT_FOUND, ErrorCode.PREVIEW_AMBIGUOUS,
      ErrorCode.PREVIEW_FAILED, ErrorCode.INVALID_PATTERN, ErrorCode.PROCESS_EXITED, ErrorCode.TOO_MANY_PROCESSES,
      ErrorCode.CONNECTION_REFUSED);
  private static final int MAX_MESSAGE_CHARS = 1_000;
  private static final Pattern WORKSPACE_FULL = Pattern.compile(": (no space left on device|disk quota exceeded)$");

  private CelldErrors() {}

  static WorkcellException toException(String code, String message) {
    ErrorCode known = ErrorCode.fromCode(code);
    String text = sanitize(message);
    if (ErrorCode.INTERNAL.code().equals(code) && WORKSPACE_FULL.matcher(text).find()) {
      // celld reports an errno it has no code for as internal with the errno's text: a bounded disk is full.
      return new WorkcellException(ErrorCode.WORKSPACE_FULL, text);
    }
    if (!CELLD_CODES.contains(known)) {
      return new WorkcellException(ErrorCode.INTERNAL, "celld failed (" + sanitize(code) + "): " + text);
    }
    return new WorkcellException(known, text);
  }

  /** Untrusted text: control characters replaced, length capped. */
  static String sanitize(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_MESSAGE_CHARS));
    for (int i = 0; i < text.length() && out.length() < MAX_MESSAGE_CHARS; i++) {
      char c = text.charAt(i);
      out.append(Character.isISOControl(c) ? ' ' : c);
    }
    if (text.length() > MAX_MESSAGE_CHARS) {
      out.append('…');
    }
    return out.toString();
  }
}
