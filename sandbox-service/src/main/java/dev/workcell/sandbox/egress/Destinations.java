package dev.workcell.sandbox.egress;

import dev.workcell.sandbox.config.SandboxSettings;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the egress proxy may connect: the proxy resolves names itself (the sandbox resolves nothing
 * outside its network) and connects only to public addresses, the same ranges the launcher's
 * firewall drops for open sandboxes ({@code bin/lib/sandbox-firewall.sh}), so it is never a way
 * into the host or a private network. The address checked is the address connected to. The
 * Kubernetes driver asks it too, for the addresses of an allowlisted sandbox's NetworkPolicy.
 */
public final class Destinations {

  /** Thrown when a name has no address the proxy may use; the message says why. */
  public static final class Refused extends Exception {
    Refused(String message) {
      super(message, null, false, false);
    }
  }

  private static final List<String> BLOCKED = List.of("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10",
      "169.254.0.0/16", "127.0.0.0/8", "0.0.0.0/8", "224.0.0.0/4", "240.0.0.0/4",
      "fc00::/7", "fe80::/10", "::1/128", "::/128", "::ffff:0:0/96", "64:ff9b::/96", "ff00::/8");

  private final Map<String, InetAddress> overrides;
  private final boolean allowPrivate;

  /** The resolver the settings describe ({@code resolve-override}), never allowing private destinations. */
  public static Destinations publicOnly(SandboxSettings settings) {
    return new Destinations(settings.egress().resolveOverride().map(Destinations::overrides).orElse(Map.of()), false);
  }

  Destinations(Map<String, InetAddress> overrides, boolean allowPrivate) {
    this.overrides = Map.copyOf(overrides);
    this.allowPrivate = allowPrivate;
  }

  /** {@code name=ip,name=ip}; names lower-cased. */
  static Map<String, InetAddress> overrides(String value) {
    Map<String, InetAddress> out = new HashMap<>();
    for (String pair : value.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      String[] parts = pair.split("=", 2);
      if (parts.length != 2 || !parts[1].strip().matches("[0-9a-fA-F:.]+")) {
        throw new IllegalArgumentException("resolve-override entries look like name=ip, not '" + pair + "'");
      }
      try {
        out.put(parts[0].strip().toLowerCase(Locale.ROOT), InetAddress.getByName(parts[1].strip()));
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("resolve-override: " + parts[1] + " is not an address", e);
      }
    }
    return out;
  }

  /** The first public address of {@code host}, IPv4 first. */
  InetAddress resolve(String host) throws Refused {
    return addresses(host).getFirst();
  }

  /** Every public address of {@code host} (the ones the proxy may connect to), IPv4 first; never empty. */
  public List<InetAddress> addresses(String host) throws Refused {
    InetAddress[] found;
    InetAddress override = overrides.get(host.toLowerCase(Locale.ROOT));
    if (override != null) {
      found = new InetAddress[] {override};
    } else {
      try {
        found = InetAddress.getAllByName(host);
      } catch (UnknownHostException e) {
        throw new Refused("the name does not resolve");
      }
    }
    List<InetAddress> usable = Arrays.stream(found).filter(a -> allowPrivate || isPublic(a))
        .sorted((a, b) -> Boolean.compare(b instanceof Inet4Address, a instanceof Inet4Address)).distinct().toList();
    if (usable.isEmpty()) {
      throw new Refused("the name resolves to no public address");
    }
    return usable;
  }

  public static boolean isPublic(InetAddress address) {
    byte[] bytes = address.getAddress();
    for (String range : BLOCKED) {
      if (contains(range, bytes)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code cidr} ({@code a.b.c.d/n} or IPv6) holds {@code address}. */
  public static boolean contains(String cidr, InetAddress address) {
    return contains(cidr, address.getAddress());
  }

  private static boolean contains(String cidr, byte[] address) {
    String[] parts = cidr.split("/");
    byte[] network;
    try {
      network = InetAddress.getByName(parts[0]).getAddress();
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
    if (network.length != address.length || cidr.contains(":") && network.length == 4) {
      // Java turns ::ffff:a.b.c.d into an IPv4 address (checked against the IPv4 ranges), also here.
      return false;
    }
    int bits = Integer.parseInt(parts[1]);
    for (int i = 0; i < bits; i++) {
      int mask = 0x80 >>> (i % 8);
      if ((network[i / 8] & mask) != (address[i / 8] & mask)) {
        return false;
      }
    }
    return true;
  }
}
