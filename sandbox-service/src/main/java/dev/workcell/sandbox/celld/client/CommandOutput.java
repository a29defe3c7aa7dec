package dev.workcell.sandbox.celld.client;

/**
 * The cap on a command's collected output, stdout and stderr together (WORK_MAX_OUTPUT_CHARS), the
 * way celld applies it: a stream that fits in half the cap keeps all of itself and leaves the rest
 * to the other, otherwise each gets half; a cut stream keeps its first and last halves around a
 * marker line. celld counts bytes, so its result already fits; this re-applies the cap to whatever
 * an older or misbehaving celld sends.
 */
public final class CommandOutput {

  /** Room left per stream for a marker line celld put in ({@code [... N bytes truncated ...]}). */
  static final int MARKER_SLACK = 64;

  private CommandOutput() {}

  /** The two streams within {@code limit} characters (plus their markers); truncated when anything was cut. */
  public record Kept(String stdout, String stderr, boolean truncated) {}

  public static Kept cap(String stdout, String stderr, int limit) {
    int out = stdout.length();
    int err = stderr.length();
    if ((long) out + err <= (long) limit + 2 * MARKER_SLACK) {
      return new Kept(stdout, stderr, false);
    }
    int allowOut = limit - limit / 2;
    int allowErr = limit / 2;
    if (out <= limit / 2) {
      allowOut = out;
      allowErr = limit - out;
    } else if (err <= limit / 2) {
      allowOut = limit - err;
      allowErr = err;
    }
    return new Kept(keep(stdout, allowOut), keep(stderr, allowErr), true);
  }

  /** The first and last halves of {@code allow} characters, never splitting a surrogate pair. */
  static String keep(String text, int allow) {
    if (text.length() <= allow) {
      return text;
    }
    int headEnd = allow - allow / 2;
    if (headEnd > 0 && Character.isHighSurrogate(text.charAt(headEnd - 1))) {
      headEnd--;
    }
    int tailStart = text.length() - allow / 2;
    if (tailStart < text.length() && Character.isLowSurrogate(text.charAt(tailStart))) {
      tailStart++;
    }
    return text.substring(0, headEnd) + "\n[... " + (tailStart - headEnd) + " characters truncated ...]\n" + text.substring(tailStart);
  }
}
