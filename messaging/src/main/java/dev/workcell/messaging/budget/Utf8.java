package dev.workcell.messaging.budget;

/** Sizes of text as UTF-8 without encoding it (a 2 MB text checked by getBytes() is a 2 MB copy). */
public final class Utf8 {

  private Utf8() {}

  /** The UTF-8 length of {@code text}; a lone surrogate counts 3 bytes, as the encoder's replacement '?' would be 1 (never less). */
  public static long length(CharSequence text) {
    long bytes = 0;
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes++;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
