package dev.workcell.contracts.sandbox;

import java.util.List;

/** Matches in walk order; {@code truncated} when more existed. */
public record GlobResult(List<GlobMatch> matches, boolean truncated) {

  /** {@code path} relative to the sandbox root; {@code type} file, dir, symlink or other. */
  public record GlobMatch(String path, String type, long size, long mtimeMs) {}
}
