package dev.workcell.gateway.openterminal.service;

/** Paths in grep and glob answers. */
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
}
