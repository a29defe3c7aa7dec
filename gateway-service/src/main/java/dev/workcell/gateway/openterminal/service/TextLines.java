package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.util.ArrayList;
import java.util.List;

/** Line ranges and find-and-replace with Open Terminal's semantics (Python's {@code splitlines(keepends=True)}). */
public final class TextLines {

  private TextLines() {}

  /** Lines with their terminators, split where Python's {@code str.splitlines} splits. */
  public static List<String> split(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
        i += 2;
        lines.add(text.substring(start, i));
        start = i;
      } else if (breaks(c)) {
        i++;
        lines.add(text.substring(start, i));
        start = i;
      } else {
        i++;
      }
    }
    if (start < text.length()) {
      lines.add(text.substring(start));
    }
    return lines;
  }

  /** Universal newlines, as Python's text mode reads a file: {@code \r\n} and a lone {@code \r} become {@code \n}. */
  public static String normalizeNewlines(String text) {
    return text.indexOf('\r') < 0 ? text : text.replace("\r\n", "\n").replace('\r', '\n');
  }

  /** One replacement: exactly one occurrence of {@code target} unless {@code allowMultiple}, within the line range if given. */
  public static String replace(String content, String target, String replacement, Integer startLine, Integer endLine,
      boolean allowMultiple) {
    if (target == null || target.isEmpty()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "target must not be empty");
    }
    String with = replacement == null ? "" : replacement;
    if (startLine == null && endLine == null) {
      check(count(content, target), target, allowMultiple);
      return content.replace(target, with);
    }
    List<String> lines = split(content);
    int from = Math.min(startLine == null ? 0 : startLine - 1, lines.size());
    int to = Math.max(from, Math.min(endLine == null ? lines.size() : endLine, lines.size()));
    String region = String.join("", lines.subList(from, to));
    check(count(region, target), target, allowMultiple);
    return String.join("", lines.subList(0, from)) + region.replace(target, with) + String.join("", lines.subList(to, lines.size()));
  }

  private static void check(int count, String target, boolean allowMultiple) {
    if (count == 0) {
      String shown = target.length() > 100 ? target.substring(0, 100) : target;
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "Target string not found: '" + shown + "'");
    }
    if (count > 1 && !allowMultiple) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT,
          "Found " + count + " occurrences of target string but allow_multiple is false");
    }
  }

  private static int count(String text, String target) {
    int count = 0;
    for (int at = text.indexOf(target); at >= 0; at = text.indexOf(target, at + target.length())) {
      count++;
    }
    return count;
  }

  /** Where Python's {@code str.splitlines} ends a line (besides {@code \r} and {@code \r\n}). */
  static boolean breaks(char c) {
    return c == '\n' || c == '\r' || c == '\u000b' || c == '\u000c' || c == '\u001c' || c == '\u001d' || c == '\u001e'
        || c == '\u0085' || c == '\u2028' || c == '\u2029';
  }
}
