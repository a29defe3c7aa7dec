package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import java.util.List;

/**
 * The Git writes of the Work API (issue 24), each answered with the repository's {@link GitStatus}
 * afterwards. Every one is refused with {@code sandbox_in_use} while a run or a preview holds the
 * task's sandbox.
 */
public final class GitChange {

  private GitChange() {}

  /** {@code git init -b main} in the workspace root; {@code already_exists} when there is a {@code .git}. */
  public record InitRepository(SandboxRef sandbox) {}

  /**
   * Stages exactly these workspace-relative paths (at most {@link dev.workcell.contracts.Limits#GIT_STAGE_MAX_PATHS}):
   * new and changed files are added, deleted tracked ones removed; a directory stages what is below it.
   */
  public record StagePaths(SandboxRef sandbox, List<String> paths) {}

  /**
   * Commits the index with {@code message} (at most {@link dev.workcell.contracts.Limits#GIT_COMMIT_MESSAGE_MAX_CHARS}
   * characters); author and committer are the account's, named by the gateway.
   */
  public record CommitStaged(SandboxRef sandbox, String message, String authorName, String authorEmail) {}

  /** Creates local branch {@code name} at HEAD, without switching to it. */
  public record CreateBranch(SandboxRef sandbox, String name) {}

  /** Switches to the existing local branch {@code name}; {@code worktree_not_clean} when tracked files have changes. */
  public record SwitchBranch(SandboxRef sandbox, String name) {}
}
