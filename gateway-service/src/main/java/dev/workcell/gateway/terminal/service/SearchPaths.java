package dev.workcell.gateway.terminal.service;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;

/** Paths in grep and glob answers, and Open Terminal's glob matching on top of sandbox-service's. */
public final class SearchPaths {

  private SearchPaths() {}

  /**
   * A hit's home-relative path. sandbox-service reports paths relative to the sandbox root; a hit
   * that is not beneath the searched directory is taken as relative to it instead.
   */
  public static String homeRelative(String searched, String hit) {
    if (hit == null || hit.isEmpty() || hit.equals(".")) {
      return searched;
    }
    String clean = hit.startsWith("./") ? hit.substring(2) : hit;
    if (searched.isEmpty() || clean.equals(searched) || clean.startsWith(searched + "/")) {
      return clean;
    }
    return searched + "/" + clean;
  }

  /** The path relative to the searched directory, as glob_search shows it. */
  public static String belowSearched(String searched, String homeRelative) {
    if (searched.isEmpty()) {
      return homeRelative;
    }
    return homeRelative.startsWith(searched + "/") ? homeRelative.substring(searched.length() + 1) : homeRelative;
  }

  /**
   * Open Terminal matches a glob against the entry's name or its relative path, so {@code *.py}
   * finds files at any depth; a pattern without {@code /} is sent as {@code **}{@code /pattern} for that.
   */
  public static String anyDepth(String pattern) {
    return pattern.contains("/") || pattern.startsWith("**") ? pattern : "**/" + pattern;
  }

  /** Whether {@code relative} (or its last name) matches one of {@code patterns} — for excludes beyond the first. */
  public static boolean matchesAny(List<String> patterns, String relative) {
    if (patterns.isEmpty()) {
      return false;
    }
    Path path = Path.of(relative);
    Path name = path.getFileName();
    for (String pattern : patterns) {
      try {
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        if (matcher.matches(path) || (name != null && matcher.matches(name))) {
          return true;
        }
      } catch (IllegalArgumentException e) {
        // An unusable extra pattern excludes nothing; the first one went to sandbox-service and was checked there.
      }
    }
    return false;
  }
}
