package dev.workcell.cli;

import java.time.Duration;
import picocli.CommandLine.ITypeConverter;

/** Accepts ISO-8601 ({@code PT2S}) or the short forms {@code 500ms}, {@code 2s}, {@code 12h}. */
public class DurationConverter implements ITypeConverter<Duration> {

  @Override
  public Duration convert(String value) {
    String v = value.trim().toLowerCase();
    if (v.startsWith("p")) {
      return Duration.parse(value.toUpperCase());
    }
    if (v.endsWith("ms")) {
      return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
    }
    long amount = Long.parseLong(v.substring(0, v.length() - 1));
    return switch (v.charAt(v.length() - 1)) {
      case 's' -> Duration.ofSeconds(amount);
      case 'm' -> Duration.ofMinutes(amount);
      case 'h' -> Duration.ofHours(amount);
      case 'd' -> Duration.ofDays(amount);
      default -> throw new IllegalArgumentException("not a duration: " + value);
    };
  }
}
