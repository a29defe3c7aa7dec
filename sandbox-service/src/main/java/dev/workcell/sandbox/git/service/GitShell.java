package dev.workcell.sandbox.git.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.celld.client.CelldReplies;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.lifecycle.service.SandboxSession;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;

/**
 * Runs a git script inside the sandbox through celld (bash, as the sandbox user), hardened so that
 * nothing the repository, the image or the environment names is executed (issue 24). Every script
 * starts with {@link #PRELUDE} and calls git only as {@code g}:
 * <ul>
 *   <li>every {@code GIT_*} variable of the environment is dropped; no system or global config
 *       ({@code GIT_CONFIG_NOSYSTEM}, {@code GIT_CONFIG_GLOBAL=/dev/null}), no system attributes;
 *       {@code HOME} and {@code XDG_CONFIG_HOME} are {@code /dev/null}, which no one can put a file under;</li>
 *   <li>on the command line, which outranks the repository's config: no hooks
 *       ({@code core.hooksPath=/dev/null}, and {@code --no-verify} where git has it), no fsmonitor, no
 *       external diff, no pager, editor, askpass, credential helper, signing program or ssh command,
 *       no submodule recursion, no automatic gc; diffs run with {@code --no-ext-diff --no-textconv};</li>
 *   <li>filter drivers cannot be switched off by a wildcard, so the prelude lists the ones the
 *       repository's config defines ({@code git config} follows includes) and blanks each by name
 *       ({@code clean}, {@code smudge}, {@code process} empty, {@code required=false}): git runs no
 *       filter with an empty command. A name that could not be passed safely refuses the call;</li>
 *   <li>no network: {@code GIT_ALLOW_PROTOCOL=file}, {@code protocol.allow=never}, no terminal prompt;</li>
 *   <li>{@code .git} must be a directory in the workspace root: a link or a gitfile is refused, and the
 *       top level must be the workspace itself ({@code GIT_CEILING_DIRECTORIES} is its parent);</li>
 *   <li>bounded time (60 s) and output (each caller's cap).</li>
 * </ul>
 * The filter list is read a moment before git runs: a background process of the sandbox could
 * rename a driver in between. It would run as the sandbox user, who already runs that process.
 */
@ApplicationScoped
public class GitShell {

  static final int TIMEOUT_SEC = 60;

  // Exit statuses of the scripts; git itself uses 0, 1 and 128.
  static final int NOT_A_REPOSITORY = 86;
  static final int GIT_DIR_NOT_A_DIRECTORY = 87;
  static final int UNSAFE_DRIVER_NAME = 88;
  static final int FILTER_CONFIGURED = 89;
  static final int WORKTREE_NOT_CLEAN = 90;
  static final int ALREADY_EXISTS = 91;
  static final int NOT_FOUND = 92;
  static final int INVALID_NAME = 93;
  static final int NOTHING_TO_COMMIT = 94;
  static final int NO_COMMITS = 95;
  static final int REFUSED_BY_GIT = 96;

  /** The hardened environment, {@code g} (git with the overriding options) and the {@code .git} check. */
  static final String PRELUDE = """
      for v in $(env | sed -n 's/^\\(GIT_[A-Za-z0-9_]*\\)=.*/\\1/p'); do unset "$v"; done
      unset SSH_AUTH_SOCK SSH_ASKPASS PAGER EDITOR VISUAL
      export HOME=/dev/null XDG_CONFIG_HOME=/dev/null GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_ATTR_NOSYSTEM=1 \\
        GIT_ALLOW_PROTOCOL=file GIT_TERMINAL_PROMPT=0 GIT_ASKPASS=false GIT_SSH_COMMAND=false GIT_EDITOR=false \\
        GIT_SEQUENCE_EDITOR=false GIT_PAGER=cat GIT_NO_REPLACE_OBJECTS=1 GIT_OPTIONAL_LOCKS=0 \\
        GIT_CEILING_DIRECTORIES="$(dirname "$PWD")"
      G=(--no-pager -c core.hooksPath=/dev/null -c core.fsmonitor=false -c core.sshCommand=false -c core.pager=cat
        -c core.editor=false -c core.askPass=false -c credential.helper= -c diff.external= -c core.attributesFile=/dev/null
        -c commit.gpgSign=false -c tag.gpgSign=false -c gpg.program=false -c log.showSignature=false
        -c submodule.recurse=false -c diff.ignoreSubmodules=all -c gc.auto=0 -c maintenance.auto=false
        -c protocol.allow=never -c core.quotepath=off -c color.ui=false)
      g() { git "${G[@]}" "$@"; }
      if [ -L .git ] || { [ -e .git ] && [ ! -d .git ]; }; then exit 87; fi
      """;

  /**
   * {@link #PRELUDE}, then: the workspace root is a repository's top level, and each filter driver
   * its config defines is blanked in {@code G}; {@code filters} counts them.
   */
  static final String REPOSITORY = PRELUDE + """
      [ -d .git ] && [ "$(g rev-parse --show-toplevel 2>/dev/null)" = "$PWD" ] || exit 86
      filters=0
      while IFS= read -r -d '' key; do
        [[ $key =~ ^filter\\.([A-Za-z0-9_.-]+)\\.[a-z]+$ ]] || exit 88
        name=${BASH_REMATCH[1]}
        G+=(-c "filter.$name.clean=" -c "filter.$name.smudge=" -c "filter.$name.process=" -c "filter.$name.required=false")
        filters=$((filters + 1))
      done < <(g config -z --name-only --get-regexp '^filter\\.' 2>/dev/null)
      """;

  private final SandboxLifecycle lifecycle;

  public GitShell(SandboxLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  /** Runs {@code script}; the scripts' own exit statuses become their problems, any other failure is git's. */
  public CommandResult run(SandboxRef sandbox, String script, Map<String, String> env, int maxOutput) {
    var exec = new CelldRequest.Exec(script, TIMEOUT_SEC, null, env, true, maxOutput);
    CommandResult result;
    try (SandboxSession session = lifecycle.use(sandbox)) {
      result = CelldReplies.commandResult(session.celld().call(exec, Duration.ofSeconds(TIMEOUT_SEC + 30)), maxOutput);
    }
    if (result.timedOut()) {
      throw new WorkcellException(ErrorCode.TIMEOUT, "git did not finish within " + TIMEOUT_SEC + " s");
    }
    if (result.exitCode() != 0) {
      throw problem(result);
    }
    return result;
  }

  private static WorkcellException problem(CommandResult result) {
    String said = firstLines(result.stderr());
    return switch (result.exitCode()) {
      case NOT_A_REPOSITORY -> new WorkcellException(ErrorCode.NOT_A_REPOSITORY, "the sandbox root is not a git repository");
      case GIT_DIR_NOT_A_DIRECTORY -> new WorkcellException(ErrorCode.UNSAFE_REPOSITORY,
          ".git is a link or a file: only a .git directory in the workspace root is used");
      case UNSAFE_DRIVER_NAME -> new WorkcellException(ErrorCode.UNSAFE_REPOSITORY,
          "the repository's config names a filter driver whose name is not letters, digits, '.', '_' or '-'");
      case FILTER_CONFIGURED -> new WorkcellException(ErrorCode.UNSAFE_REPOSITORY,
          "the repository's config defines a filter driver; Workcell runs none, so it does not stage or switch here"
              + " (content would differ from what the filter makes)");
      case WORKTREE_NOT_CLEAN -> new WorkcellException(ErrorCode.WORKTREE_NOT_CLEAN, said.isEmpty()
          ? "tracked files have uncommitted changes; commit or discard them before switching" : said);
      case ALREADY_EXISTS -> new WorkcellException(ErrorCode.ALREADY_EXISTS, said);
      case NOT_FOUND -> new WorkcellException(ErrorCode.NOT_FOUND, said);
      case INVALID_NAME -> new WorkcellException(ErrorCode.INVALID_ARGUMENT, "not a valid branch name");
      case NOTHING_TO_COMMIT -> new WorkcellException(ErrorCode.NOTHING_TO_COMMIT, "nothing is staged");
      case NO_COMMITS -> new WorkcellException(ErrorCode.NO_COMMITS, "the repository has no commit yet; commit first");
      case REFUSED_BY_GIT -> new WorkcellException(said.contains(".lock") ? ErrorCode.CONFLICT : ErrorCode.INVALID_ARGUMENT,
          "git refused: " + said);
      default -> new WorkcellException(ErrorCode.INTERNAL, "git failed (exit " + result.exitCode() + "): " + said);
    };
  }

  /** At most five lines and 500 characters of what the script said. */
  private static String firstLines(String stderr) {
    String lines = stderr.strip().lines().limit(5).reduce((a, b) -> a + " / " + b).orElse("");
    return lines.length() > 500 ? lines.substring(0, 500) + "…" : lines;
  }
}
