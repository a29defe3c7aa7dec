package dev.workcell.sandbox.git.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.GitChange.CommitStaged;
import dev.workcell.contracts.sandbox.GitChange.CreateBranch;
import dev.workcell.contracts.sandbox.GitChange.InitRepository;
import dev.workcell.contracts.sandbox.GitChange.StagePaths;
import dev.workcell.contracts.sandbox.GitChange.SwitchBranch;
import dev.workcell.contracts.sandbox.GitQuery;
import dev.workcell.contracts.sandbox.GitStatus;
import dev.workcell.contracts.sandbox.GitStatus.GitCommit;
import dev.workcell.contracts.sandbox.GitStatus.GitFile;
import dev.workcell.contracts.sandbox.HoldRuntime;
import dev.workcell.contracts.sandbox.ReleaseRuntime;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Git writes against the real engine and sandbox image (issue 24): each operation, then a
 * repository whose config points fsmonitor, hooks, ssh, an external diff, a textconv and a filter
 * driver at programs that leave a marker — no API call leaves one, plain git in the same repository
 * does — a .git link, and writes while a run holds the sandbox.
 */
@QuarkusTest
class GitWriterTest {

  /** Every program the repository names: touches /tmp/markers/&lt;its name&gt; and passes stdin through. */
  private static final String PLANT = String.join(" && ",
      "mkdir -p /tmp/markers /tmp/evil/hooks",
      "for p in fsmonitor ssh external textconv clean smudge pager editor; do"
          + " printf '#!/bin/sh\\ntouch /tmp/markers/%s\\ncat\\n' $p > /tmp/evil/$p; chmod +x /tmp/evil/$p; done",
      "for h in pre-commit commit-msg post-commit post-checkout reference-transaction post-index-change pre-auto-gc; do"
          + " printf '#!/bin/sh\\ntouch /tmp/markers/hook-%s\\n' $h > /tmp/evil/hooks/$h; chmod +x /tmp/evil/hooks/$h;"
          + " cp /tmp/evil/hooks/$h .git/hooks/$h; done",
      "git config core.fsmonitor /tmp/evil/fsmonitor && git config core.hooksPath /tmp/evil/hooks",
      "git config core.sshCommand /tmp/evil/ssh && git config diff.external /tmp/evil/external",
      "git config diff.evil.textconv /tmp/evil/textconv && git config core.pager /tmp/evil/pager",
      "git config core.editor /tmp/evil/editor",
      "printf '*.txt diff=evil\\n' > .git/info/attributes");
  private static final String PLANT_FILTER = String.join(" && ",
      "git config filter.evil.clean /tmp/evil/clean && git config filter.evil.smudge /tmp/evil/smudge",
      "printf '*.txt diff=evil filter=evil\\n' > .git/info/attributes");
  private static final String MARKERS = "ls -A /tmp/markers";

  @Inject
  SandboxClient sandboxes;

  @Test
  void initStageCommitBranchAndSwitch() {
    SandboxRef task = sandboxes.newTask("git-writer");
    try {
      assertThat(sandboxes.failure(SandboxSubjects.GIT_STAGE, new StagePaths(task, List.of("a.txt"))).code())
          .isEqualTo(ErrorCode.NOT_A_REPOSITORY);
      GitStatus fresh = sandboxes.call(SandboxSubjects.GIT_INIT, new InitRepository(task));
      assertThat(fresh.branch()).isEqualTo("main");
      assertThat(fresh.recentCommits()).isEmpty();
      assertThat(sandboxes.failure(SandboxSubjects.GIT_INIT, new InitRepository(task)).code()).isEqualTo(ErrorCode.ALREADY_EXISTS);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_BRANCH_CREATE, new CreateBranch(task, "topic")).code()).isEqualTo(ErrorCode.NO_COMMITS);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_COMMIT, commit(task, "nothing")).code()).isEqualTo(ErrorCode.NOTHING_TO_COMMIT);

      ok(sandboxes.run(task, "printf 'one\\n' > a.txt && printf 'two\\n' > 'b c.txt' && printf 'left\\n' > untouched.txt"));
      GitStatus staged = sandboxes.call(SandboxSubjects.GIT_STAGE, new StagePaths(task, List.of("a.txt", "b c.txt")));
      assertThat(staged.files()).extracting(GitFile::path, GitFile::index).containsExactlyInAnyOrder(
          tuple("a.txt", "A"), tuple("b c.txt", "A"), tuple("untouched.txt", "?"));
      assertThat(sandboxes.failure(SandboxSubjects.GIT_STAGE, new StagePaths(task, List.of("missing.txt"))).code())
          .isEqualTo(ErrorCode.NOT_FOUND);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_STAGE, new StagePaths(task, List.of("../etc/passwd"))).code())
          .isEqualTo(ErrorCode.INVALID_PATH);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_STAGE, new StagePaths(task, List.of(".git/config"))).code())
          .isEqualTo(ErrorCode.INVALID_PATH);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_STAGE, new StagePaths(task, Collections.nCopies(201, "a.txt"))).code())
          .isEqualTo(ErrorCode.TOO_MANY_PATHS);

      GitStatus committed = sandboxes.call(SandboxSubjects.GIT_COMMIT, commit(task, "First commit\n\n# kept as written"));
      assertThat(committed.recentCommits()).extracting(GitCommit::subject, GitCommit::author).containsExactly(tuple("First commit", "Alice Ösel"));
      assertThat(committed.files()).extracting(GitFile::path).containsExactly("untouched.txt");
      CommandResult who = sandboxes.run(task, "git log -1 --format='%an <%ae> / %cn <%ce>%n%B'");
      assertThat(who.stdout()).startsWith("Alice Ösel <alice@example.invalid> / Alice Ösel <alice@example.invalid>\nFirst commit\n\n# kept as written");
      assertThat(sandboxes.failure(SandboxSubjects.GIT_COMMIT, commit(task, "x".repeat(4_001))).code())
          .isEqualTo(ErrorCode.COMMIT_MESSAGE_TOO_LONG);

      assertThat(sandboxes.call(SandboxSubjects.GIT_BRANCH_CREATE, new CreateBranch(task, "topic")).branch()).isEqualTo("main");
      assertThat(sandboxes.failure(SandboxSubjects.GIT_BRANCH_CREATE, new CreateBranch(task, "topic")).code()).isEqualTo(ErrorCode.ALREADY_EXISTS);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_BRANCH_CREATE, new CreateBranch(task, "bad..name")).code())
          .isEqualTo(ErrorCode.INVALID_ARGUMENT);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_SWITCH, new SwitchBranch(task, "nowhere")).code()).isEqualTo(ErrorCode.NOT_FOUND);

      ok(sandboxes.run(task, "printf 'changed\\n' >> a.txt"));
      var dirty = sandboxes.failure(SandboxSubjects.GIT_SWITCH, new SwitchBranch(task, "topic"));
      assertThat(dirty.code()).isEqualTo(ErrorCode.WORKTREE_NOT_CLEAN);
      assertThat(dirty.getMessage()).contains("1 tracked paths have uncommitted changes");
      ok(sandboxes.run(task, "git checkout -- a.txt"));
      assertThat(sandboxes.call(SandboxSubjects.GIT_SWITCH, new SwitchBranch(task, "topic")).branch()).isEqualTo("topic");

      // A run holding the sandbox (or waiting for it) owns it: writes wait; reads go on.
      sandboxes.call(SandboxSubjects.LEASE_HOLD, new HoldRuntime(task, "run-git", 60_000, 0));
      var busy = sandboxes.failure(SandboxSubjects.GIT_SWITCH, new SwitchBranch(task, "main"));
      assertThat(busy.code()).isEqualTo(ErrorCode.SANDBOX_IN_USE);
      assertThat(busy.getMessage()).contains("run run-git is active");
      assertThat(sandboxes.failure(SandboxSubjects.GIT_STAGE, new StagePaths(task, List.of("untouched.txt"))).code())
          .isEqualTo(ErrorCode.SANDBOX_IN_USE);
      assertThat(sandboxes.call(SandboxSubjects.GIT_STATUS, new GitQuery(task, null)).branch()).isEqualTo("topic");
      sandboxes.call(SandboxSubjects.LEASE_RELEASE, new ReleaseRuntime(task, "run-git"));
      assertThat(sandboxes.call(SandboxSubjects.GIT_SWITCH, new SwitchBranch(task, "main")).branch()).isEqualTo("main");
    } finally {
      sandboxes.deleteQuietly(task);
    }
  }

  @Test
  void noProgramTheRepositoryNamesRunsAndALinkedGitIsRefused() {
    SandboxRef task = sandboxes.newTask("git-hostile");
    try {
      ok(sandboxes.run(task, "git init -q -b main . && printf 'one\\n' > a.txt && git add a.txt"
          + " && git -c user.name=T -c user.email=t@example.invalid commit -qm base && git branch other"));
      ok(sandboxes.run(task, PLANT));

      ok(sandboxes.run(task, "printf 'two\\n' >> a.txt && printf 'new\\n' > b.txt"));
      assertThat(sandboxes.call(SandboxSubjects.GIT_DIFF, new GitQuery(task, null)).diff()).contains("+two").contains("+new");
      assertThat(sandboxes.call(SandboxSubjects.GIT_STAGE, new StagePaths(task, List.of("a.txt", "b.txt"))).files())
          .extracting(GitFile::path, GitFile::index).containsExactlyInAnyOrder(tuple("a.txt", "M"), tuple("b.txt", "A"));
      assertThat(sandboxes.call(SandboxSubjects.GIT_COMMIT, commit(task, "Second")).recentCommits()).hasSize(2);
      sandboxes.call(SandboxSubjects.GIT_BRANCH_CREATE, new CreateBranch(task, "third"));
      assertThat(sandboxes.call(SandboxSubjects.GIT_SWITCH, new SwitchBranch(task, "other")).branch()).isEqualTo("other");
      assertThat(sandboxes.run(task, MARKERS).stdout()).as("markers after the writes").isEmpty();

      // A filter driver: reads run with it blanked, stage and switch are refused.
      ok(sandboxes.run(task, PLANT_FILTER + " && printf 'three\\n' >> a.txt && touch -d '+1 hour' a.txt"));
      assertThat(sandboxes.call(SandboxSubjects.GIT_STATUS, new GitQuery(task, null)).files()).extracting(GitFile::path).contains("a.txt");
      assertThat(sandboxes.call(SandboxSubjects.GIT_DIFF, new GitQuery(task, null)).diff()).contains("+three");
      var staging = sandboxes.failure(SandboxSubjects.GIT_STAGE, new StagePaths(task, List.of("a.txt")));
      assertThat(staging.code()).isEqualTo(ErrorCode.UNSAFE_REPOSITORY);
      assertThat(staging.getMessage()).contains("filter driver");
      assertThat(sandboxes.failure(SandboxSubjects.GIT_SWITCH, new SwitchBranch(task, "main")).code()).isEqualTo(ErrorCode.UNSAFE_REPOSITORY);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_COMMIT, commit(task, "nothing staged")).code()).isEqualTo(ErrorCode.NOTHING_TO_COMMIT);
      assertThat(sandboxes.run(task, MARKERS).stdout()).as("markers after the reads with a filter").isEmpty();

      // The same repository does run them for plain git: the markers above could have appeared.
      sandboxes.run(task, "git status >/dev/null; git add a.txt; git diff HEAD >/dev/null");
      assertThat(sandboxes.run(task, MARKERS).stdout()).contains("fsmonitor").contains("clean").contains("external");

      ok(sandboxes.run(task, "mv .git real.git && ln -s real.git .git"));
      assertThat(sandboxes.failure(SandboxSubjects.GIT_STATUS, new GitQuery(task, null)).code()).isEqualTo(ErrorCode.UNSAFE_REPOSITORY);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_DIFF, new GitQuery(task, null)).code()).isEqualTo(ErrorCode.UNSAFE_REPOSITORY);
      assertThat(sandboxes.failure(SandboxSubjects.GIT_INIT, new InitRepository(task)).code()).isEqualTo(ErrorCode.UNSAFE_REPOSITORY);
      var linked = sandboxes.failure(SandboxSubjects.GIT_COMMIT, commit(task, "through the link"));
      assertThat(linked.code()).isEqualTo(ErrorCode.UNSAFE_REPOSITORY);
      assertThat(linked.getMessage()).contains(".git is a link or a file");
    } finally {
      sandboxes.deleteQuietly(task);
    }
  }

  private static CommitStaged commit(SandboxRef task, String message) {
    return new CommitStaged(task, message, "Alice Ösel", "alice@example.invalid");
  }

  private static void ok(CommandResult result) {
    assertThat(result.exitCode()).as(result.stdout() + result.stderr()).isZero();
  }
}
