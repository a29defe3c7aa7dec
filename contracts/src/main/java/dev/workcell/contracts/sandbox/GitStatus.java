package dev.workcell.contracts.sandbox;

import java.time.Instant;
import java.util.List;

/**
 * {@code branch} null when detached; {@code files}: one per changed path; {@code recentCommits}: the
 * newest first, at most {@link dev.workcell.contracts.Limits#GIT_LOG_MAX_COMMITS}, empty before the first commit.
 */
public record GitStatus(String branch, String head, int ahead, int behind, List<GitFile> files, List<GitCommit> recentCommits) {

  public GitStatus {
    // A reply from a sandbox-service that predates the history has no such field.
    recentCommits = recentCommits == null ? List.of() : recentCommits;
  }

  /** {@code index}/{@code worktree}: porcelain status letters (M, A, D, R, ?, ...), {@code from} for renames. */
  public record GitFile(String path, String index, String worktree, String from) {}

  /** {@code subject}: the message's first paragraph on one line, clipped; {@code time}: the author date. */
  public record GitCommit(String hash, String subject, String author, Instant time) {}
}
