package dev.workcell.task.support;

import java.nio.charset.StandardCharsets;

/** Counting and bounding text the way the limits are written: characters and UTF-8 bytes. */
public final class Text {

  private Text() {}

  /** UTF-8 length without encoding; an unpaired surrogate counts as the 3 bytes of U+FFFD. */
  public static long utf8Length(CharSequence text) {
    long bytes = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /** Keeps the first {@code maxChars} characters (never splitting a surrogate pair) and a marker. */
  public static Bounded boundChars(String text, int maxChars) {
    if (text == null || text.length() <= maxChars) {
      return new Bounded(text, false);
    }
    int end = maxChars;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    int omitted = text.length() - end;
    return new Bounded(text.substring(0, end) + "\n[truncated: " + omitted + " more characters not stored]", true);
  }

  /** Keeps a prefix whose UTF-8 form, marker included, fits {@code maxBytes}. */
  public static Bounded boundBytes(String text, int maxBytes) {
    if (text == null || utf8Length(text) <= maxBytes) {
      return new Bounded(text, false);
    }
    String marker = "\n[truncated: the message exceeded " + maxBytes + " bytes]";
    int budget = maxBytes - marker.getBytes(StandardCharsets.UTF_8).length;
    long used = 0;
    int end = 0;
    while (end < text.length()) {
      int cp = text.codePointAt(end);
      int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (used + size > budget) {
        break;
      }
      used += size;
      end += Character.charCount(cp);
    }
    return new Bounded(text.substring(0, end) + marker, true);
  }

  public record Bounded(String text, boolean truncated) {}
}
