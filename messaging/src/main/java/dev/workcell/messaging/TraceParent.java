package dev.workcell.messaging;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/** W3C trace context ({@code 00-<trace id>-<span id>-<flags>}) for NATS headers. */
public final class TraceParent {

  private static final Pattern FORMAT = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
  private static final HexFormat HEX = HexFormat.of();

  private TraceParent() {}

  public static boolean isValid(String value) {
    return value != null && FORMAT.matcher(value).matches()
        && !value.startsWith("00-00000000000000000000000000000000");
  }

  /** Starts a new trace. */
  public static String newRoot() {
    return "00-" + randomHex(16) + "-" + randomHex(8) + "-01";
  }

  /** A new span in the same trace as {@code parent}; a missing or invalid parent starts a new trace. */
  public static String childOf(String parent) {
    if (!isValid(parent)) {
      return newRoot();
    }
    return parent.substring(0, 36) + randomHex(8) + parent.substring(52);
  }

  public static String traceId(String traceparent) {
    return isValid(traceparent) ? traceparent.substring(3, 35) : null;
  }

  private static String randomHex(int bytes) {
    byte[] raw = new byte[bytes];
    ThreadLocalRandom.current().nextBytes(raw);
    raw[0] |= 1; // never all zeros, which W3C declares invalid
    return HEX.formatHex(raw);
  }
}
