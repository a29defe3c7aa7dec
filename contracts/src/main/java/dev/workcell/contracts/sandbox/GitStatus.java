package dev.workcell.contracts.sandbox;

import java.util.List;

/** {@code branch} null when detached; {@code files}: one per changed path. */
public record GitStatus(String branch, String head, int ahead, int behind, List<GitFile> files) {

  /** {@code index}/{@code worktree}: porcelain status letters (M, A, D, R, ?, ...), {@code from} for renames. */
  public record GitFile(String path, String index, String worktree, String from) {}
}
