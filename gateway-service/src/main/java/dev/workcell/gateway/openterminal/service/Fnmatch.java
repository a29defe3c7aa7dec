package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Open Terminal's glob: Python's {@code fnmatch} against an entry's name or its path below the
 * searched directory, where {@code *} crosses {@code /}. celld matches segment by segment, so a
 * pattern goes to it as the few segment patterns that cover it ({@link #celldPatterns}), and every
 * hit is then held to the exact rule here ({@link #matches}).
 */
public final class Fnmatch {

  /** Stars beyond these stay within one name: 2^n celld walks per search is the cost of each. */
  private static final int MAX_CROSSING_STARS = 3;

  private final Pattern regex;

  private Fnmatch(Pattern regex) {
    this.regex = regex;
  }

  public static Fnmatch compile(String glob) {
    try {
      return new Fnmatch(Pattern.compile(translate(glob), Pattern.DOTALL));
    } catch (PatternSyntaxException e) {
      throw new WorkcellException(ErrorCode.INVALID_PATTERN, "not a usable glob: " + glob);
    }
  }

  /** Whether the path below the searched directory, or its last name, matches. */
  public boolean matches(String relative) {
    String name = relative.substring(relative.lastIndexOf('/') + 1);
    return regex.matcher(name).matches() || regex.matcher(relative).matches();
  }

  /**
   * Segment patterns for celld whose union holds every path this glob matches: each {@code *} either
   * stays in a name or crosses directories ({@code *}{@code /**}{@code /*}), and a glob without
   * {@code /} may match a name at any depth. Bracket expressions and backslashes become {@code ?}.
   */
  public static List<String> celldPatterns(String glob) {
    String simple = simplify(glob);
    String[] parts = simple.split("\\*", -1);
    int stars = parts.length - 1;
    int crossing = Math.min(stars, MAX_CROSSING_STARS);
    boolean flat = !simple.contains("/");
    Set<String> patterns = new LinkedHashSet<>();
    if (flat) {
      patterns.add("**/" + simple);
    }
    for (int mask = 0; mask < (1 << crossing); mask++) {
      // Without '/', no crossing (a name) or only a leading star crossing (a name below anything) is the name rule's.
      if (flat && (mask == 0 || (mask == 1 && parts[0].isEmpty()))) {
        continue;
      }
      StringBuilder pattern = new StringBuilder(parts[0]);
      for (int star = 0; star < stars; star++) {
        pattern.append((mask & (1 << star)) != 0 ? "*/**/*" : "*").append(parts[star + 1]);
      }
      patterns.add(pattern.toString());
    }
    return new ArrayList<>(patterns);
  }

  /** Consecutive stars as one, bracket expressions and backslashes as {@code ?} (a superset for celld). */
  private static String simplify(String glob) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < glob.length()) {
      char c = glob.charAt(i++);
      if (c == '*') {
        if (out.isEmpty() || out.charAt(out.length() - 1) != '*') {
          out.append('*');
        }
      } else if (c == '[') {
        int end = bracketEnd(glob, i);
        out.append('?');
        if (end >= 0) {
          i = end + 1;
        }
      } else {
        out.append(c == '\\' ? '?' : c);
      }
    }
    return out.toString();
  }

  /** Python's {@code fnmatch.translate}, as a Java regex. */
  static String translate(String glob) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < glob.length()) {
      char c = glob.charAt(i++);
      if (c == '*') {
        if (!out.toString().endsWith(".*")) {
          out.append(".*");
        }
      } else if (c == '?') {
        out.append('.');
      } else if (c == '[') {
        int end = bracketEnd(glob, i);
        if (end < 0) {
          out.append("\\[");
        } else {
          String stuff = glob.substring(i, end).replace("\\", "\\\\").replace("[", "\\[").replace("&", "\\&");
          i = end + 1;
          if (stuff.startsWith("!")) {
            stuff = "^" + stuff.substring(1);
          } else if (stuff.startsWith("^")) {
            stuff = "\\" + stuff;
          }
          out.append('[').append(stuff).append(']');
        }
      } else {
        out.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return out.toString();
  }

  /** The index of the {@code ]} closing a bracket expression opened before {@code from}, or -1. */
  private static int bracketEnd(String glob, int from) {
    int j = from;
    if (j < glob.length() && glob.charAt(j) == '!') {
      j++;
    }
    if (j < glob.length() && glob.charAt(j) == ']') {
      j++;
    }
    while (j < glob.length() && glob.charAt(j) != ']') {
      j++;
    }
    return j < glob.length() ? j : -1;
  }
}
