package dev.workcell.gateway.openterminal.service;

import java.nio.charset.StandardCharsets;

/**
 * An attachment header that survives any file name: HTTP header values are Latin-1, so a non-ASCII
 * name goes in RFC 6266's {@code filename*} (UTF-8, percent-encoded) beside an ASCII {@code filename}.
 */
public final class ContentDisposition {

  private static final String ATTR_CHARS = "!#$&+-.^_`|~";

  private ContentDisposition() {}

  public static String attachment(String name) {
    StringBuilder ascii = new StringBuilder();
    boolean plain = true;
    for (char c : name.toCharArray()) {
      boolean printable = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
      ascii.append(printable ? c : '_');
      plain &= printable;
    }
    String header = "attachment; filename=\"" + ascii + "\"";
    return plain ? header : header + "; filename*=UTF-8''" + encode(name);
  }

  private static String encode(String name) {
    StringBuilder out = new StringBuilder();
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || ATTR_CHARS.indexOf(c) >= 0) {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return out.toString();
  }
}
