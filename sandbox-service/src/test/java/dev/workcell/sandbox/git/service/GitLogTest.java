package dev.workcell.sandbox.git.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.GitStatus.GitCommit;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The git log reader takes exactly four NUL-separated fields per commit and nothing else. */
class GitLogTest {

  private static final String A = "a".repeat(40);
  private static final String B = "b".repeat(64);

  @Test
  void readsCommitsNewestFirstWithoutGitsPadding() {
    String out = String.join("\0", A, "2026-12-03T16:40:15+01:00", "Ça Va" + " ".repeat(95), "Fix it" + " ".repeat(194),
        B, "2026-12-02T10:00:00Z", "Bob", "") + "\0";
    assertThat(GitLog.parse(out)).containsExactly(
        new GitCommit(A, "Fix it", "Ça Va", Instant.parse("2026-12-03T15:40:15Z")),
        new GitCommit(B, "", "Bob", Instant.parse("2026-12-02T10:00:00Z")));
    assertThat(GitLog.parse("")).isEmpty();
  }

  @Test
  void anythingElseIsRefused() {
    String one = String.join("\0", A, "2026-12-03T16:40:15+01:00", "a", "s") + "\0";
    assertThat(GitLog.parse(one)).hasSize(1);
    for (String bad : new String[] {
        one.substring(0, one.length() - 1), // not terminated
        one + "extra\0", // a fifth field
        String.join("\0", "not-a-hash", "2026-12-03T16:40:15+01:00", "a", "s") + "\0",
        String.join("\0", A, "yesterday", "a", "s") + "\0",
        String.join("\0", A.toUpperCase(), "2026-12-03T16:40:15+01:00", "a", "s") + "\0",
        one.repeat(21)}) {
      assertThatThrownBy(() -> GitLog.parse(bad)).isInstanceOf(WorkcellException.class).hasMessageContaining("git log output");
    }
  }

  @Test
  void longTextIsClipped() {
    String subject = "\u0301".repeat(5_000); // zero-width: git's column cut does not shorten it
    assertThat(GitLog.parse(String.join("\0", A, "2026-12-03T16:40:15Z", "a", subject) + "\0").get(0).subject()).hasSize(1_000);
  }
}
