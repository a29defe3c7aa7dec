package dev.workcell.sandbox.files.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Paths are refused before they reach celld. */
class WorkspacePathTest {

  @ParameterizedTest
  @ValueSource(strings = {"/etc/passwd", "../x", "a/../b", "a/./b", "a//b", "a/", "a\\b", "a\u0000b", ".."})
  void refusesTraversalAndOddSegments(String path) {
    assertThatThrownBy(() -> WorkspacePath.entry(path)).isInstanceOfSatisfying(WorkcellException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_PATH));
  }

  @Test
  void refusesPathsOver1024Bytes() {
    assertThat(WorkspacePath.entry("é".repeat(512))).hasSize(512);
    assertThatThrownBy(() -> WorkspacePath.entry("é".repeat(513))).isInstanceOf(WorkcellException.class);
  }

  @Test
  void theRootIsADirectoryButNeverAnEntry() {
    assertThat(WorkspacePath.directory("")).isEqualTo(".");
    assertThat(WorkspacePath.directory(null)).isEqualTo(".");
    assertThatThrownBy(() -> WorkspacePath.entry(".")).isInstanceOf(WorkcellException.class);
    assertThat(WorkspacePath.entry("src/main.py")).isEqualTo("src/main.py");
  }
}
