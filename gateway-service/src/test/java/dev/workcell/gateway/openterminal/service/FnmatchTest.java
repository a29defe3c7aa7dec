package dev.workcell.gateway.openterminal.service;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Open Terminal's glob is fnmatch on the name or the relative path: '*' crosses '/'. */
class FnmatchTest {

  @Test
  void aStarCrossesDirectoriesAndMatchesNamesAtAnyDepth() {
    assertThat(Fnmatch.compile("*.py").matches("a/b/c.py")).isTrue();
    assertThat(Fnmatch.compile("src/*.py").matches("src/a/b.py")).isTrue();
    assertThat(Fnmatch.compile("p*/*.txt").matches("pr/d/x.txt")).isTrue();
    assertThat(Fnmatch.compile("**/*.py").matches("a.py")).isFalse(); // fnmatch's ** is two stars: a '/' is needed
    assertThat(Fnmatch.compile("[!a]*.md").matches("docs/b.md")).isTrue();
    assertThat(Fnmatch.compile("[!a]*.md").matches("a.md")).isFalse();
    assertThat(Fnmatch.compile("x[").matches("x[")).isTrue();
    assertThat(Fnmatch.compile("a.b").matches("axb")).isFalse();
  }

  @Test
  void celldGetsSegmentPatternsThatCoverTheGlob() {
    assertThat(Fnmatch.celldPatterns("*.py")).containsExactly("**/*.py");
    assertThat(Fnmatch.celldPatterns("p*/*.txt")).containsExactly("p*/*.txt", "p*/**/*/*.txt", "p*/*/**/*.txt",
        "p*/**/*/*/**/*.txt");
    assertThat(Fnmatch.celldPatterns("a[bc]d")).containsExactly("**/a?d");
  }
}
