package dev.workcell.sandbox.git.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.GitChange.CommitStaged;
import dev.workcell.contracts.sandbox.GitChange.CreateBranch;
import dev.workcell.contracts.sandbox.GitChange.InitRepository;
import dev.workcell.contracts.sandbox.GitChange.StagePaths;
import dev.workcell.contracts.sandbox.GitChange.SwitchBranch;
import dev.workcell.contracts.sandbox.GitQuery;
import dev.workcell.contracts.sandbox.GitStatus;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.admission.service.RuntimeAdmission;
import dev.workcell.sandbox.files.service.WorkspacePath;
import dev.workcell.sandbox.runtime.SandboxKey;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The Git writes of the Work API (issue 24): init, stage explicit paths, commit as the account,
 * create a branch, switch to a clean one. Each is refused with {@code sandbox_in_use} while a run
 * (holding the sandbox or waiting in line for it) or a verified preview holds the task's sandbox:
 * sandbox-service keeps those holds, so the check sits next to the write it guards, one call, no
 * round trip to task-service (whose run state a run's hold mirrors from before its first round to its
 * end). Writes that move content between worktree and index (stage, switch) are refused with
 * {@code unsafe_repository} when the repository defines a filter driver: with the driver blanked
 * they would store or write other bytes than the repository's own git. Answers the status after the
 * write. Blocking.
 */
@ApplicationScoped
public class GitWriter {

  private static final int OUTPUT_MAX_CHARS = 64_000;
  private static final int NAME_MAX_CHARS = 200;

  private static final String INIT = GitShell.PRELUDE + """
      if [ -e .git ] || [ -L .git ]; then echo "the workspace already has a .git" >&2; exit 91; fi
      g init -q -b main . || exit 1
      """;
  private static final String STAGE = GitShell.REPOSITORY + """
      [ "$filters" -eq 0 ] || exit 89
      set --
      for ((i = 0; i < WORKCELL_GIT_PATHS; i++)); do
        v=WORKCELL_GIT_PATH_$i; p=${!v}
        if [ ! -e "$p" ] && [ ! -L "$p" ] && ! g ls-files --error-unmatch -- ":(literal)$p" >/dev/null 2>&1; then
          printf 'nothing to stage at %s: no file and nothing tracked\\n' "$p" >&2; exit 92
        fi
        set -- "$@" ":(literal)$p"
      done
      g add -A -- "$@" || exit 96
      """;
  private static final String COMMIT = GitShell.REPOSITORY + """
      g diff --cached --quiet --no-ext-diff --no-textconv; [ $? -ne 0 ] || exit 94
      export GIT_AUTHOR_NAME="$WORKCELL_GIT_NAME" GIT_AUTHOR_EMAIL="$WORKCELL_GIT_EMAIL" \\
        GIT_COMMITTER_NAME="$WORKCELL_GIT_NAME" GIT_COMMITTER_EMAIL="$WORKCELL_GIT_EMAIL"
      printf '%s' "$WORKCELL_GIT_MESSAGE" | g commit -q --no-verify --no-gpg-sign --cleanup=whitespace -F - || exit 96
      """;
  private static final String BRANCH_CHECK = """
      b=$WORKCELL_GIT_BRANCH
      g check-ref-format --branch "$b" >/dev/null 2>&1 || exit 93
      """;
  private static final String CREATE_BRANCH = GitShell.REPOSITORY + BRANCH_CHECK + """
      g rev-parse -q --verify HEAD >/dev/null || exit 95
      if g show-ref --verify -q "refs/heads/$b"; then echo "branch $b already exists" >&2; exit 91; fi
      g branch --no-track "$b" || exit 96
      """;
  private static final String SWITCH = GitShell.REPOSITORY + BRANCH_CHECK + """
      [ "$filters" -eq 0 ] || exit 89
      g show-ref --verify -q "refs/heads/$b" || { echo "no local branch $b" >&2; exit 92; }
      changed=$(g status --porcelain=v1 --untracked-files=no --ignore-submodules=all | wc -l)
      if [ "$changed" -ne 0 ]; then
        echo "$changed tracked paths have uncommitted changes; commit or discard them before switching" >&2; exit 90
      fi
      g switch -q --no-guess "$b" || exit 90
      """;

  private final GitShell shell;
  private final GitInspector inspector;
  private final RuntimeAdmission admission;

  public GitWriter(GitShell shell, GitInspector inspector, RuntimeAdmission admission) {
    this.shell = shell;
    this.inspector = inspector;
    this.admission = admission;
  }

  public GitStatus init(InitRepository request) {
    return write(request.sandbox(), INIT, Map.of());
  }

  public GitStatus stage(StagePaths request) {
    List<String> paths = request.paths();
    if (paths == null || paths.isEmpty()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "paths names at least one workspace path");
    }
    if (paths.size() > Limits.GIT_STAGE_MAX_PATHS) {
      throw new WorkcellException(ErrorCode.TOO_MANY_PATHS, paths.size() + " paths; at most " + Limits.GIT_STAGE_MAX_PATHS + " a request");
    }
    Map<String, String> env = new HashMap<>();
    env.put("WORKCELL_GIT_PATHS", Integer.toString(paths.size()));
    for (int i = 0; i < paths.size(); i++) {
      String path = WorkspacePath.entry(paths.get(i));
      if (path.equals(".git") || path.startsWith(".git/")) {
        throw new WorkcellException(ErrorCode.INVALID_PATH, "paths inside .git are not staged");
      }
      env.put("WORKCELL_GIT_PATH_" + i, path);
    }
    return write(request.sandbox(), STAGE, env);
  }

  public GitStatus commit(CommitStaged request) {
    String message = request.message();
    if (message == null || message.isBlank()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "message is required");
    }
    if (message.length() > Limits.GIT_COMMIT_MESSAGE_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.COMMIT_MESSAGE_TOO_LONG,
          message.length() + " characters; at most " + Limits.GIT_COMMIT_MESSAGE_MAX_CHARS);
    }
    if (message.chars().anyMatch(c -> c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7f)) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "message has control characters other than newline and tab");
    }
    return write(request.sandbox(), COMMIT, Map.of("WORKCELL_GIT_MESSAGE", message,
        "WORKCELL_GIT_NAME", identity(request.authorName(), "authorName"),
        "WORKCELL_GIT_EMAIL", identity(request.authorEmail(), "authorEmail")));
  }

  public GitStatus createBranch(CreateBranch request) {
    return write(request.sandbox(), CREATE_BRANCH, Map.of("WORKCELL_GIT_BRANCH", branch(request.name())));
  }

  public GitStatus switchBranch(SwitchBranch request) {
    return write(request.sandbox(), SWITCH, Map.of("WORKCELL_GIT_BRANCH", branch(request.name())));
  }

  private GitStatus write(SandboxRef sandbox, String script, Map<String, String> env) {
    refuseWhileHeld(sandbox);
    shell.run(sandbox, script, env, OUTPUT_MAX_CHARS);
    return inspector.status(new GitQuery(sandbox, null));
  }

  private void refuseWhileHeld(SandboxRef sandbox) {
    if (sandbox.isHome()) {
      return; // an Open Terminal home has no runs or previews
    }
    List<String> holders = admission.holders(SandboxKey.of(sandbox).id());
    if (!holders.isEmpty()) {
      throw new WorkcellException(ErrorCode.SANDBOX_IN_USE, holders.stream()
          .map(h -> RuntimeAdmission.PREVIEW.equals(h) ? "a preview runs" : "run " + h + " is active")
          .collect(Collectors.joining(", ")) + ": Git writes wait until it ends");
    }
  }

  /** Git's refusals (lock, ref syntax) are its own; these keep the request out of the script's way. */
  private static String branch(String name) {
    if (name == null || name.isEmpty() || name.length() > NAME_MAX_CHARS || name.startsWith("-") || name.contains("@{")
        || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "name must be a branch name of 1.." + NAME_MAX_CHARS + " characters");
    }
    return name;
  }

  /** The gateway names the account; git refuses angle brackets and line breaks in an identity. */
  private static String identity(String value, String field) {
    if (value == null || value.isBlank() || value.length() > NAME_MAX_CHARS
        || value.chars().anyMatch(c -> c < 0x20 || c == 0x7f || c == '<' || c == '>')) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, field + " must be 1.." + NAME_MAX_CHARS + " printable characters without < or >");
    }
    return value;
  }
}
