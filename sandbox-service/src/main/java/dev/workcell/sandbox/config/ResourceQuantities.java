package dev.workcell.sandbox.config;

import java.math.BigDecimal;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the resource notations of the settings and policies the way the Docker CLI reads them. */
public final class ResourceQuantities {

  private static final Pattern MEMORY = Pattern.compile("([0-9]{1,15})([bkmg]?)", Pattern.CASE_INSENSITIVE);
  private static final Pattern CPUS = Pattern.compile("[0-9]{1,4}(\\.[0-9]{1,3})?");
  /** Docker refuses memory limits below 6 MB; a sandbox needs far more to run a shell and celld. */
  public static final long MIN_MEMORY_BYTES = 64L << 20;
  public static final long MIN_NANO_CPUS = 10_000_000L;

  private ResourceQuantities() {}

  /** Bytes of {@code 2g}, {@code 512m}, {@code 1048576k} or plain bytes; empty when malformed. */
  public static OptionalLong memoryBytes(String value) {
    if (value == null) {
      return OptionalLong.empty();
    }
    Matcher m = MEMORY.matcher(value.trim());
    if (!m.matches()) {
      return OptionalLong.empty();
    }
    long number = Long.parseLong(m.group(1));
    int shift = switch (m.group(2).toLowerCase()) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      default -> 0;
    };
    if (number > (Long.MAX_VALUE >> shift)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(number << shift);
  }

  /** Nano CPUs of a decimal core count such as {@code 2} or {@code 0.5}; empty when malformed. */
  public static OptionalLong nanoCpus(String value) {
    if (value == null || !CPUS.matcher(value.trim()).matches()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(new BigDecimal(value.trim()).movePointRight(9).longValueExact());
  }

  public static OptionalLong nanoCpus(double cores) {
    if (!Double.isFinite(cores) || cores <= 0 || cores > 9999) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Math.round(cores * 1_000_000_000d));
  }
}
