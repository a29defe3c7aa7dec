package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** WORK_MAX_OUTPUT_CHARS bounds stdout and stderr together, keeping each stream's head and tail. */
class CommandOutputTest {

  @Test
  void outputWithinTheCapIsKept() {
    CommandOutput.Kept kept = CommandOutput.cap("a".repeat(60), "b".repeat(40), 100);
    assertThat(kept.truncated()).isFalse();
    assertThat(kept.stdout()).hasSize(60);
    assertThat(kept.stderr()).hasSize(40);
  }

  @Test
  void bothLargeStreamsGetHalfEach() {
    CommandOutput.Kept kept = CommandOutput.cap("H" + "a".repeat(10_000) + "T", "h" + "b".repeat(10_000) + "t", 1_000);
    assertThat(kept.truncated()).isTrue();
    assertThat(kept.stdout()).startsWith("H").endsWith("T").contains("characters truncated");
    assertThat(kept.stderr()).startsWith("h").endsWith("t").contains("characters truncated");
    assertThat(kept.stdout().replaceAll("\\n\\[\\.\\.\\. \\d+ characters truncated \\.\\.\\.\\]\\n", "")).hasSize(500);
    assertThat(kept.stderr().replaceAll("\\n\\[\\.\\.\\. \\d+ characters truncated \\.\\.\\.\\]\\n", "")).hasSize(500);
  }

  @Test
  void aSmallStreamKeepsAllOfItselfAndTheOtherTheRest() {
    CommandOutput.Kept kept = CommandOutput.cap("a".repeat(10_000), "small error", 1_000);
    assertThat(kept.stderr()).isEqualTo("small error");
    assertThat(kept.stdout().replaceAll("\\n\\[\\.\\.\\. \\d+ characters truncated \\.\\.\\.\\]\\n", "")).hasSize(1_000 - 11);
  }

  @Test
  void aSurrogatePairIsNeverSplit() {
    String kept = CommandOutput.keep("\uD83D\uDE00".repeat(100), 10);
    assertThat(kept).doesNotContain("\uFFFD");
    assertThat(kept.split("\n")[0]).isEqualTo("\uD83D\uDE00".repeat(2));
    assertThat(kept.substring(kept.lastIndexOf('\n') + 1)).isEqualTo("\uD83D\uDE00".repeat(2));
  }
}
