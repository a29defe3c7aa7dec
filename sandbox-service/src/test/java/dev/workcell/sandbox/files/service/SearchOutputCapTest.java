package dev.workcell.sandbox.files.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.sandbox.GlobResult;
import dev.workcell.contracts.sandbox.GlobResult.GlobMatch;
import dev.workcell.contracts.sandbox.GrepResult;
import dev.workcell.contracts.sandbox.SearchHit;
import dev.workcell.contracts.sandbox.SearchResult;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Search replies carry whole hits up to WORK_MAX_OUTPUT_CHARS characters of paths and lines. */
class SearchOutputCapTest {

  private static final List<SearchHit> HITS =
      IntStream.range(0, 10).mapToObj(i -> new SearchHit("f" + i + ".txt", 1, "x".repeat(94))).toList(); // 100 chars each

  @Test
  void hitsBeyondTheCapAreLeftOutAndMarkTheResultTruncated() {
    SearchResult search = SearchOutputCap.search(new SearchResult(HITS, false), 450);
    assertThat(search.hits()).hasSize(4);
    assertThat(search.truncated()).isTrue();
    GrepResult grep = SearchOutputCap.grep(new GrepResult(HITS, false), 1_000);
    assertThat(grep.matches()).hasSize(10);
    assertThat(grep.truncated()).isFalse();
    assertThat(SearchOutputCap.grep(new GrepResult(HITS, false), 999).matches()).hasSize(9);
  }

  @Test
  void globCountsPaths() {
    List<GlobMatch> matches = IntStream.range(0, 10).mapToObj(i -> new GlobMatch("d/" + "n".repeat(48), "file", 1, 0)).toList();
    GlobResult glob = SearchOutputCap.glob(new GlobResult(matches, false), 200);
    assertThat(glob.matches()).hasSize(4);
    assertThat(glob.truncated()).isTrue();
    GlobResult already = new GlobResult(matches.subList(0, 2), true);
    assertThat(SearchOutputCap.glob(already, 200)).isSameAs(already);
  }
}
