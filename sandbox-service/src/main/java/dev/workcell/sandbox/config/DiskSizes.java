package dev.workcell.sandbox.config;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Workspace sizes: {@code 5g}, {@code 512m}, {@code 5Gi}, {@code 1.5G}, {@code 10GB} or plain bytes.
 * Every unit is binary (as Docker and Kubernetes' {@code Gi} read it), so {@code 5g} and {@code 5Gi}
 * are the same disk.
 */
public final class DiskSizes {

  /** ext4 needs a few MB for itself; below this a workspace would be full at once. */
  public static final long MIN_BYTES = 16L << 20;
  public static final long MAX_BYTES = 16L << 40;

  private static final Pattern SIZE = Pattern.compile("([0-9]{1,15}(?:\\.[0-9]{1,3})?)\\s*([kmgt]?)(i?b?)", Pattern.CASE_INSENSITIVE);

  private DiskSizes() {}

  /** Bytes of {@code value}; empty when malformed or outside {@link #MIN_BYTES}..{@link #MAX_BYTES}. */
  public static OptionalLong bytes(String value) {
    if (value == null) {
      return OptionalLong.empty();
    }
    Matcher m = SIZE.matcher(value.trim());
    if (!m.matches() || m.group(2).isEmpty() && !m.group(3).isEmpty() && !m.group(3).equalsIgnoreCase("b")) {
      return OptionalLong.empty();
    }
    int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      case "t" -> 40;
      default -> 0;
    };
    BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(1L << shift));
    if (bytes.compareTo(BigDecimal.valueOf(MIN_BYTES)) < 0 || bytes.compareTo(BigDecimal.valueOf(MAX_BYTES)) > 0) {
      return OptionalLong.empty();
    }
    // Whole 4 KiB blocks: the image and the filesystem on it end on a block.
    return OptionalLong.of(bytes.longValue() & ~4095L);
  }
}
