package dev.workcell.gateway.file.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decodes one JSON string of a UTF-8 JSON document straight into UTF-8 bytes: escapes resolved,
 * the rest copied as it is after checking it is well-formed UTF-8. Two passes (count, then write),
 * so the result is the only array. A lone surrogate escape becomes U+FFFD. Runs of plain ASCII are
 * found eight bytes at a time and copied whole: a byte-by-byte walk of a 2 MB save was a fifth of the
 * gateway's CPU while one user flooded writes.
 */
final class JsonStringBytes {

  private static final int REPLACEMENT = 0xFFFD;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private JsonStringBytes() {}

  /** The string whose opening quote is at {@code json[quote]}. */
  static byte[] decode(byte[] json, int quote) {
    if (quote < 0 || quote >= json.length || json[quote] != '"') {
      throw malformed("a string was expected");
    }
    byte[] out = new byte[scan(json, quote + 1, null)];
    scan(json, quote + 1, out);
    return out;
  }

  /** Walks the string from {@code from} to its closing quote; writes its bytes into {@code out} when given; returns their count. */
  private static int scan(byte[] in, int from, byte[] out) {
    int n = 0;
    int i = from;
    while (true) {
      if (i >= in.length) {
        throw malformed("a string is not closed");
      }
      int plain = plainRun(in, i);
      if (plain > i) {
        if (out != null) {
          System.arraycopy(in, i, out, n, plain - i);
        }
        n += plain - i;
        i = plain;
        continue;
      }
      int b = in[i] & 0xFF;
      if (b == '"') {
        return n;
      }
      if (b == '\\') {
        int[] escape = escape(in, i);
        n = put(out, n, escape[0]);
        i += escape[1];
      } else if (b < 0x80) {
        if (b < 0x20) {
          throw malformed("a control character in a string must be escaped");
        }
        if (out != null) {
          out[n] = (byte) b;
        }
        n++;
        i++;
      } else {
        int length = sequence(in, i);
        if (out != null) {
          System.arraycopy(in, i, out, n, length);
        }
        n += length;
        i += length;
      }
    }
  }

  /** The end of the run of plain ASCII (0x20..0x7F but the quote and the backslash) that starts at {@code from}. */
  private static int plainRun(byte[] in, int from) {
    int i = from;
    for (; i + Long.BYTES <= in.length; i += Long.BYTES) {
      long word = (long) LONGS.get(in, i);
      // A byte below 0x20, equal to '"' or '\\', or with its high bit set (SWAR: exact, per word).
      long special = ((word - 0x20 * ONES) | zeroBytes(word ^ '"' * ONES) | zeroBytes(word ^ '\\' * ONES) | word) & HIGHS;
      if (special != 0) {
        break;
      }
    }
    while (i < in.length && plain(in[i])) {
      i++;
    }
    return i;
  }

  /** The high bit of each byte of {@code word} that may be zero; none set means no byte is. */
  private static long zeroBytes(long word) {
    return (word - ONES) & ~word;
  }

  private static boolean plain(byte b) {
    return b >= 0x20 && b != '"' && b != '\\';
  }

  /** The code point of the escape at {@code in[i]} and how many bytes it took. */
  private static int[] escape(byte[] in, int i) {
    if (i + 1 >= in.length) {
      throw malformed("a string is not closed");
    }
    int c = switch (in[i + 1]) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '/' -> '/';
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'u' -> -1;
      default -> throw malformed("an unknown escape in a string");
    };
    if (c >= 0) {
      return new int[] {c, 2};
    }
    int unit = hex4(in, i + 2);
    if (Character.isHighSurrogate((char) unit) && i + 11 < in.length && in[i + 6] == '\\' && in[i + 7] == 'u') {
      int low = hex4(in, i + 8);
      if (Character.isLowSurrogate((char) low)) {
        return new int[] {Character.toCodePoint((char) unit, (char) low), 12};
      }
    }
    return new int[] {Character.isSurrogate((char) unit) ? REPLACEMENT : unit, 6};
  }

  private static int hex4(byte[] in, int from) {
    if (from + 4 > in.length) {
      throw malformed("a \\u escape needs four hex digits");
    }
    int value = 0;
    for (int k = from; k < from + 4; k++) {
      int digit = Character.digit(in[k], 16);
      if (digit < 0) {
        throw malformed("a \\u escape needs four hex digits");
      }
      value = value << 4 | digit;
    }
    return value;
  }

  /** The length of the well-formed UTF-8 sequence (2 to 4 bytes) starting at {@code in[i]}. */
  private static int sequence(byte[] in, int i) {
    int lead = in[i] & 0xFF;
    int length = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
    if (length == 0 || i + length > in.length) {
      throw malformed("a string is not valid UTF-8");
    }
    int second = in[i + 1] & 0xFF;
    // No overlong forms, no surrogates, nothing past U+10FFFF.
    int min = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
    int max = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
    if (second < min || second > max) {
      throw malformed("a string is not valid UTF-8");
    }
    for (int k = i + 2; k < i + length; k++) {
      if ((in[k] & 0xC0) != 0x80) {
        throw malformed("a string is not valid UTF-8");
      }
    }
    return length;
  }

  private static int put(byte[] out, int n, int cp) {
    int length = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (out != null) {
      switch (length) {
        case 1 -> out[n] = (byte) cp;
        case 2 -> {
          out[n] = (byte) (0xC0 | cp >> 6);
          out[n + 1] = (byte) (0x80 | cp & 0x3F);
        }
        case 3 -> {
          out[n] = (byte) (0xE0 | cp >> 12);
          out[n + 1] = (byte) (0x80 | cp >> 6 & 0x3F);
          out[n + 2] = (byte) (0x80 | cp & 0x3F);
        }
        default -> {
          out[n] = (byte) (0xF0 | cp >> 18);
          out[n + 1] = (byte) (0x80 | cp >> 12 & 0x3F);
          out[n + 2] = (byte) (0x80 | cp >> 6 & 0x3F);
          out[n + 3] = (byte) (0x80 | cp & 0x3F);
        }
      }
    }
    return n + length;
  }

  private static WorkcellException malformed(String detail) {
    return new WorkcellException(ErrorCode.MALFORMED_JSON, detail);
  }
}
