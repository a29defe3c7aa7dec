package dev.workcell.sandbox.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/** Recognises IPv4/IPv6 address literals without ever resolving a name. */
public final class IpLiterals {

  private static final Pattern IPV4 =
      Pattern.compile("((25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])");
  private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

  private IpLiterals() {}

  public static boolean isLiteral(String value) {
    if (value == null) {
      return false;
    }
    if (IPV4.matcher(value).matches()) {
      return true;
    }
    if (!value.contains(":") || !IPV6_CHARS.matcher(value).matches()) {
      return false;
    }
    try {
      // With a colon and hex digits only, InetAddress parses a literal and never queries DNS.
      InetAddress.getByName(value);
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
