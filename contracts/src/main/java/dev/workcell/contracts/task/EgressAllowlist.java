package dev.workcell.contracts.task;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A runtime policy's egress allowlist (decision 0012): host names a sandbox may reach through the
 * egress proxy, each an exact name ({@code pypi.org}) or a suffix wildcard ({@code *.github.com},
 * any name below it, not the name itself). Names only: an IP literal never matches. Checked by the
 * gateway, again by task-service, and matched by sandbox-service's proxy with the same rules.
 * {@code null} means no allowlist (the open internet); an empty list allows nothing.
 */
public final class EgressAllowlist {

  public static final int MAX_ENTRIES = 100;
  public static final int NAME_MAX_CHARS = 253;

  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");

  private EgressAllowlist() {}

  /** The list in canonical form (lower case, no trailing dot, no duplicates) or {@code invalid_request}. */
  public static List<String> validate(List<String> entries) {
    if (entries == null) {
      return null;
    }
    if (entries.size() > MAX_ENTRIES) {
      throw invalid("egressAllowlist holds at most " + MAX_ENTRIES + " names");
    }
    Set<String> out = new LinkedHashSet<>();
    for (String entry : entries) {
      String name = canonical(entry);
      if (name == null) {
        throw invalid("egressAllowlist entries are host names such as pypi.org or *.github.com, not '" + shorten(entry) + "'");
      }
      out.add(name);
    }
    return List.copyOf(out);
  }

  /** A comma-separated list (a setting) in canonical form; blank → empty list. */
  public static List<String> parse(String commaSeparated) {
    List<String> entries = new ArrayList<>();
    for (String part : commaSeparated.split(",")) {
      if (!part.isBlank()) {
        entries.add(part.strip());
      }
    }
    return validate(entries);
  }

  /** Whether {@code host} (a name from a request) is on the list. */
  public static boolean allows(List<String> allowlist, String host) {
    String name = host == null ? null : canonicalName(host);
    if (name == null) {
      return false;
    }
    for (String entry : allowlist) {
      if (entry.startsWith("*.") ? name.endsWith(entry.substring(1)) : name.equals(entry)) {
        return true;
      }
    }
    return false;
  }

  /** An entry's canonical form, or null when it is not a name or a {@code *.}name. */
  static String canonical(String entry) {
    if (entry == null) {
      return null;
    }
    String value = entry.strip();
    if (value.startsWith("*.")) {
      String suffix = canonicalName(value.substring(2));
      // A wildcard over a top-level domain alone (*.com) is no allowlist.
      return suffix == null || !suffix.contains(".") ? null : "*." + suffix;
    }
    return canonicalName(value);
  }

  /** A DNS host name (letters, digits, hyphens; at least one letter in the last label, so never an IPv4 literal). */
  static String canonicalName(String value) {
    String name = value.strip().toLowerCase(Locale.ROOT);
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.isEmpty() || name.length() > NAME_MAX_CHARS) {
      return null;
    }
    String[] labels = name.split("\\.", -1);
    for (String label : labels) {
      if (!LABEL.matcher(label).matches()) {
        return null;
      }
    }
    String last = labels[labels.length - 1];
    return last.chars().anyMatch(Character::isLetter) ? name : null;
  }

  private static String shorten(String value) {
    String text = String.valueOf(value);
    return text.length() > 80 ? text.substring(0, 80) + "…" : text;
  }

  private static WorkcellException invalid(String message) {
    return new WorkcellException(ErrorCode.INVALID_REQUEST, message);
  }
}
