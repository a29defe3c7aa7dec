package dev.workcell.sandbox.git.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.GitDiff;
import dev.workcell.contracts.sandbox.GitQuery;
import dev.workcell.contracts.sandbox.GitStatus;
import dev.workcell.contracts.sandbox.GitStatus.GitCommit;
import dev.workcell.contracts.sandbox.GitStatus.GitFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** git status, recent commits and diff of a repository made inside a home: modified, added, deleted, untracked, renamed. */
@QuarkusTest
class GitInspectorTest {

  @Inject
  SandboxClient sandboxes;

  @Test
  void statusAndDiffOfARepositoryMadeInTheSandbox() {
    SandboxRef home = sandboxes.newHome("git");
    try {
      assertThat(sandboxes.failure(SandboxSubjects.GIT_STATUS, new GitQuery(home, null)).code()).isEqualTo(ErrorCode.NOT_A_REPOSITORY);
      CommandResult setup = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(home, String.join(" && ",
          "git init -q -b main .",
          "git config user.email t@example.invalid && git config user.name Tester",
          "printf 'one\\n' > modified.txt && printf 'gone\\n' > deleted.txt && printf 'move me\\n' > 'old name.txt'",
          "git add -A && git commit -qm initial",
          "printf 'two\\n' >> modified.txt && rm deleted.txt && git mv 'old name.txt' 'new name.txt'",
          "printf 'staged\\n' > added.txt && git add added.txt",
          "mkdir -p dir && printf 'fresh\\n' > dir/untracked.txt"), 30));
      assertThat(setup.exitCode()).as(setup.stderr()).isZero();

      GitStatus status = sandboxes.call(SandboxSubjects.GIT_STATUS, new GitQuery(home, null));
      assertThat(status.branch()).isEqualTo("main");
      assertThat(status.head()).matches("[0-9a-f]{40}");
      assertThat(status.files()).extracting(GitFile::path, GitFile::index, GitFile::worktree, GitFile::from).containsExactlyInAnyOrder(
          tuple("added.txt", "A", ".", null),
          tuple("deleted.txt", ".", "D", null),
          tuple("modified.txt", ".", "M", null),
          tuple("new name.txt", "R", ".", "old name.txt"),
          tuple("dir/untracked.txt", "?", "?", null));
      assertThat(status.recentCommits()).extracting(GitCommit::subject, GitCommit::author).containsExactly(tuple("initial", "Tester"));

      GitDiff diff = sandboxes.call(SandboxSubjects.GIT_DIFF, new GitQuery(home, null));
      assertThat(diff.truncated()).isFalse();
      assertThat(diff.diff())
          .contains("+++ b/modified.txt").contains("+two")
          .contains("--- a/deleted.txt").contains("-gone")
          .contains("+++ b/added.txt").contains("+staged")
          .contains("+++ b/dir/untracked.txt").contains("+fresh");
      GitDiff one = sandboxes.call(SandboxSubjects.GIT_DIFF, new GitQuery(home, "dir"));
      assertThat(one.diff()).contains("+fresh").doesNotContain("modified.txt");
      assertThat(sandboxes.failure(SandboxSubjects.GIT_DIFF, new GitQuery(home, "../x")).code()).isEqualTo(ErrorCode.INVALID_PATH);
    } finally {
      sandboxes.call(SandboxSubjects.STOP, home);
    }
  }

  @Test
  void recentCommitsAreTheNewestTwentyAndNoneBeforeTheFirst() {
    SandboxRef home = sandboxes.newHome("git-log");
    try {
      CommandResult init = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(home,
          "git init -q -b main . && git config user.email t@example.invalid && git config user.name 'Tëster Name'", 30));
      assertThat(init.exitCode()).as(init.stderr()).isZero();
      assertThat(sandboxes.call(SandboxSubjects.GIT_STATUS, new GitQuery(home, null)).recentCommits()).isEmpty();

      CommandResult commits = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(home,
          "for i in $(seq 1 22); do git commit -q --allow-empty -m \"commit $i\" -m 'body line'; done && git rev-parse HEAD", 60));
      assertThat(commits.exitCode()).as(commits.stderr()).isZero();
      Instant before = Instant.now().minusSeconds(300);
      GitStatus status = sandboxes.call(SandboxSubjects.GIT_STATUS, new GitQuery(home, null));
      assertThat(status.recentCommits()).hasSize(Limits.GIT_LOG_MAX_COMMITS);
      GitCommit newest = status.recentCommits().get(0);
      assertThat(newest.hash()).isEqualTo(commits.stdout().strip()).isEqualTo(status.head());
      assertThat(newest.subject()).isEqualTo("commit 22");
      assertThat(newest.author()).isEqualTo("Tëster Name");
      assertThat(newest.time()).isAfter(before);
      assertThat(status.recentCommits().get(19).subject()).isEqualTo("commit 3");
    } finally {
      sandboxes.call(SandboxSubjects.STOP, home);
    }
  }
}
