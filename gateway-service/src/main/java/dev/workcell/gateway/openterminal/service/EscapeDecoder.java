package dev.workcell.gateway.openterminal.service;

/**
 * Decodes backslash escapes the way Open Terminal does for process input (Python's
 * raw_unicode_escape then unicode_escape round trip): models often send a backslash-n or
 * backslash-x03 (Ctrl-C) literally. Handled: backslash, quotes, a b f n r t v, octal (up to three
 * digits), x with two hex digits, u with four, U with eight, and backslash-newline (dropped). An
 * unknown or malformed escape stays as written, where Python would fail the request.
 */
public final class EscapeDecoder {

  private EscapeDecoder() {}

  public static String decode(String text) {
    if (text.indexOf('\\') < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c != '\\' || i + 1 >= text.length()) {
        out.append(c);
        i++;
        continue;
      }
      char next = text.charAt(i + 1);
      int consumed = 2;
      switch (next) {
        case '\\' -> out.append('\\');
        case '\'' -> out.append('\'');
        case '"' -> out.append('"');
        case 'a' -> out.append('\u0007');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'v' -> out.append('\u000b');
        case '\n' -> { }
        case 'x' -> consumed = hex(text, i, 2, out);
        case 'u' -> consumed = hex(text, i, 4, out);
        case 'U' -> consumed = hex(text, i, 8, out);
        default -> {
          if (next >= '0' && next <= '7') {
            int end = i + 1;
            int value = 0;
            while (end < text.length() && end < i + 4 && text.charAt(end) >= '0' && text.charAt(end) <= '7') {
              value = value * 8 + (text.charAt(end) - '0');
              end++;
            }
            out.append((char) value);
            consumed = end - i;
          } else {
            out.append('\\').append(next);
          }
        }
      }
      i += consumed;
    }
    return out.toString();
  }

  /** Appends the code point of {@code digits} hex digits after the x, u or U, or the escape as written. */
  private static int hex(String text, int at, int digits, StringBuilder out) {
    int start = at + 2;
    int end = start + digits;
    if (end <= text.length()) {
      String hex = text.substring(start, end);
      if (hex.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
        long value = Long.parseLong(hex, 16);
        if (value <= Character.MAX_CODE_POINT) {
          out.appendCodePoint((int) value);
          return end - at;
        }
      }
    }
    out.append('\\').append(text.charAt(at + 1));
    return 2;
  }
}
