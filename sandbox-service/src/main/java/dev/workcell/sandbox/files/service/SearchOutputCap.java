package dev.workcell.sandbox.files.service;

import dev.workcell.contracts.sandbox.GlobResult;
import dev.workcell.contracts.sandbox.GlobResult.GlobMatch;
import dev.workcell.contracts.sandbox.GrepResult;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SearchHit;
import dev.workcell.contracts.sandbox.SearchResult;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * WORK_MAX_OUTPUT_CHARS applied to a Work sandbox's search replies: whole hits in walk order while
 * their paths and texts together fit, {@code truncated} when any was left out. celld bounds the
 * number of hits; a thousand long lines would still be far more than a model's tool result should carry.
 */
final class SearchOutputCap {

  private SearchOutputCap() {}

  /**
   * WORK_MAX_OUTPUT_CHARS is Work's limit. An Open Terminal home answers like upstream, bounded by its
   * result count (a directory archive lists up to 1,000 files through glob).
   */
  static int limit(SandboxRef ref, int maxOutputChars) {
    return ref.isHome() ? Integer.MAX_VALUE : maxOutputChars;
  }

  static SearchResult search(SearchResult result, int maxChars) {
    List<SearchHit> kept = fitting(result.hits(), SearchOutputCap::size, maxChars);
    return kept.size() == result.hits().size() ? result : new SearchResult(kept, true);
  }

  static GrepResult grep(GrepResult result, int maxChars) {
    List<SearchHit> kept = fitting(result.matches(), SearchOutputCap::size, maxChars);
    return kept.size() == result.matches().size() ? result : new GrepResult(kept, true);
  }

  static GlobResult glob(GlobResult result, int maxChars) {
    List<GlobMatch> kept = fitting(result.matches(), match -> match.path().length(), maxChars);
    return kept.size() == result.matches().size() ? result : new GlobResult(kept, true);
  }

  private static int size(SearchHit hit) {
    return hit.path().length() + hit.text().length();
  }

  private static <T> List<T> fitting(List<T> items, ToIntFunction<T> chars, int maxChars) {
    long used = 0;
    for (int i = 0; i < items.size(); i++) {
      used += chars.applyAsInt(items.get(i));
      if (used > maxChars) {
        return List.copyOf(items.subList(0, i));
      }
    }
    return items;
  }
}
