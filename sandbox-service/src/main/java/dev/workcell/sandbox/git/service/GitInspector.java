package dev.workcell.sandbox.git.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.GitDiff;
import dev.workcell.contracts.sandbox.GitQuery;
import dev.workcell.contracts.sandbox.GitStatus;
import dev.workcell.sandbox.celld.client.CelldReplies;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.files.service.WorkspacePath;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import dev.workcell.sandbox.lifecycle.service.SandboxSession;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;

/**
 * Git state of the repository at the sandbox root, read by running git inside the sandbox through
 * celld (as the sandbox user; nothing of the repository is trusted here): status is parsed strictly
 * from {@code --porcelain=v2 -z} and the recent commits from {@code log -z}, the diff is passed on
 * capped. Blocking.
 */
@ApplicationScoped
public class GitInspector {

  /** The exit status our scripts use for "the root is not a work tree". */
  private static final int NOT_A_REPOSITORY = 86;
  private static final int TIMEOUT_SEC = 60;
  private static final int UNTRACKED_DIFF_MAX_FILES = 500;

  // git never looks above the root (the ceiling is its parent) and reads no pager, colour or external diff.
  private static final String PRELUDE = """
      export GIT_CEILING_DIRECTORIES="$(dirname "$PWD")" GIT_OPTIONAL_LOCKS=0 GIT_PAGER=cat GIT_TERMINAL_PROMPT=0
      [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$PWD" ] || exit 86
      if [ -n "$WORKCELL_GIT_PATH" ]; then set -- -- ":(literal)$WORKCELL_GIT_PATH"; else set --; fi
      """;
  private static final String STATUS = PRELUDE + """
      exec git -c core.quotepath=off status --porcelain=v2 --branch -z --untracked-files=all "$@"
      """;
  private static final String DIFF = PRELUDE + """
      base=$(git rev-parse -q --verify HEAD 2>/dev/null || git hash-object -t tree /dev/null)
      git -c core.quotepath=off diff --no-color --no-ext-diff --no-textconv "$base" "$@" || exit 1
      git ls-files -z --others --exclude-standard "$@" | head -z -n %d | while IFS= read -r -d '' f; do
        git diff --no-color --no-ext-diff --no-textconv --no-index -- /dev/null "$f"
      done
      exit 0
      """.formatted(UNTRACKED_DIFF_MAX_FILES);
  // The whole repository's newest commits; a repository without any prints nothing.
  private static final String LOG = PRELUDE + """
      git rev-parse -q --verify HEAD >/dev/null || exit 0
      exec git log -z --no-color --no-decorate --no-show-signature -n %d '%s'
      """.formatted(Limits.GIT_LOG_MAX_COMMITS, GitLog.FORMAT);
  /** 20 commits of at most a few hundred characters each; more means a subject of zero-width characters. */
  private static final int LOG_MAX_CHARS = 200_000;

  private final SandboxLifecycle lifecycle;

  public GitInspector(SandboxLifecycle lifecycle) {
    this.lifecycle = lifecycle;
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
    var exec = new CelldRequest.Exec(script, TIMEOUT_SEC, null, env, true, maxOutput);
    CommandResult result;
    try (SandboxSession session = lifecycle.use(query.sandbox())) {
      result = CelldReplies.commandResult(session.celld().call(exec, Duration.ofSeconds(TIMEOUT_SEC + 30)), maxOutput);
    }
    if (result.exitCode() == NOT_A_REPOSITORY) {
      throw new WorkcellException(ErrorCode.NOT_A_REPOSITORY, "the sandbox root is not a git repository");
    }
    if (result.timedOut() || result.exitCode() != 0) {
      throw new WorkcellException(ErrorCode.INTERNAL, "git failed (exit " + result.exitCode() + "): "
          + result.stderr().strip().lines().limit(5).reduce((a, b) -> a + " / " + b).orElse(""));
    }
    return result;
  }
}
