package dev.workcell.sandbox.git.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.GitDiff;
import dev.workcell.contracts.sandbox.GitQuery;
import dev.workcell.contracts.sandbox.GitStatus;
import dev.workcell.sandbox.files.service.WorkspacePath;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * Git state of the repository at the sandbox root, read by running git inside the sandbox through
 * celld (as the sandbox user; nothing of the repository is trusted here): status is parsed strictly
 * from {@code --porcelain=v2 -z} and the recent commits from {@code log -z}, the diff is passed on
 * capped. Hardened like every git call ({@link GitShell}). Blocking.
 */
@ApplicationScoped
public class GitInspector {

  private static final int UNTRACKED_DIFF_MAX_FILES = 500;

  private static final String PRELUDE = GitShell.REPOSITORY + """
      if [ -n "$WORKCELL_GIT_PATH" ]; then set -- -- ":(literal)$WORKCELL_GIT_PATH"; else set --; fi
      """;
  private static final String STATUS = PRELUDE + """
      g status --porcelain=v2 --branch -z --untracked-files=all --ignore-submodules=all "$@"
      """;
  private static final String DIFF = PRELUDE + """
      base=$(g rev-parse -q --verify HEAD 2>/dev/null || g hash-object -t tree /dev/null)
      g diff --no-color --no-ext-diff --no-textconv "$base" "$@" || exit 1
      g ls-files -z --others --exclude-standard "$@" | head -z -n %d | while IFS= read -r -d '' f; do
        g diff --no-color --no-ext-diff --no-textconv --no-index -- /dev/null "$f"
      done
      exit 0
      """.formatted(UNTRACKED_DIFF_MAX_FILES);
  // The whole repository's newest commits; a repository without any prints nothing.
  private static final String LOG = PRELUDE + """
      g rev-parse -q --verify HEAD >/dev/null || exit 0
      g log -z --no-color --no-decorate --no-show-signature -n %d '%s'
      """.formatted(Limits.GIT_LOG_MAX_COMMITS, GitLog.FORMAT);
  /** 20 commits of at most a few hundred characters each; more means a subject of zero-width characters. */
  private static final int LOG_MAX_CHARS = 200_000;

  private final GitShell shell;

  public GitInspector(GitShell shell) {
    this.shell = shell;
  }

  public GitStatus status(GitQuery query) {
    CommandResult result = run(query, STATUS, Limits.GIT_STATUS_MAX_CHARS);
    if (result.truncated()) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, "git status exceeds " + Limits.GIT_STATUS_MAX_CHARS + " characters");
    }
    GitStatus status = PorcelainV2.parse(result.stdout());
    CommandResult log = run(new GitQuery(query.sandbox(), null), LOG, LOG_MAX_CHARS);
    if (log.truncated()) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, "git log exceeds " + LOG_MAX_CHARS + " characters");
    }
    return new GitStatus(status.branch(), status.head(), status.ahead(), status.behind(), status.files(), GitLog.parse(log.stdout()));
  }

  public GitDiff diff(GitQuery query) {
    CommandResult result = run(query, DIFF, Limits.GIT_DIFF_MAX_CHARS);
    return new GitDiff(result.stdout(), result.truncated());
  }

  private CommandResult run(GitQuery query, String script, int maxOutput) {
    Map<String, String> env = Map.of();
    if (query.path() != null && !query.path().isEmpty()) {
      String path = WorkspacePath.directory(query.path());
      if (!WorkspacePath.ROOT.equals(path)) {
        env = Map.of("WORKCELL_GIT_PATH", path);
      }
    }
    return shell.run(query.sandbox(), script, env, maxOutput);
  }
}
