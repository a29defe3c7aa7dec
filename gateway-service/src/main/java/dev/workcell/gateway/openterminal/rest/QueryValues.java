package dev.workcell.gateway.openterminal.rest;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.util.Locale;

/**
 * Query values parsed by hand: a JAX-RS conversion failure would answer 404, and Open Terminal
 * treats the literal {@code null} as absent (OpenWebUI sends it for unset optionals).
 */
final class QueryValues {

  private QueryValues() {}

  static boolean absent(String value) {
    return value == null || value.isEmpty() || value.equalsIgnoreCase("null");
  }

  static String text(String value) {
    return absent(value) ? null : value;
  }

  static String required(String name, String value) {
    if (absent(value)) {
      throw invalid(name + " is required");
    }
    return value;
  }

  static Integer integer(String name, String value, int min, int max, Integer fallback) {
    if (absent(value)) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.trim());
      if (parsed < min || parsed > max) {
        throw invalid(name + " must be between " + min + " and " + max);
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw invalid(name + " must be an integer");
    }
  }

  static boolean bool(String name, String value, boolean fallback) {
    if (absent(value)) {
      return fallback;
    }
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true", "1", "yes", "on" -> true;
      case "false", "0", "no", "off" -> false;
      default -> throw invalid(name + " must be true or false");
    };
  }

  /** Seconds (0..300, fractions allowed) as milliseconds; absent is 0. */
  static long waitMs(String value) {
    if (absent(value)) {
      return 0;
    }
    try {
      double seconds = Double.parseDouble(value.trim());
      if (!(seconds >= 0 && seconds <= 300)) {
        throw invalid("wait must be between 0 and 300 seconds");
      }
      return Math.round(seconds * 1000);
    } catch (NumberFormatException e) {
      throw invalid("wait must be a number of seconds");
    }
  }

  private static WorkcellException invalid(String message) {
    return new WorkcellException(ErrorCode.INVALID_REQUEST, message);
  }
}
