package dev.workcell.gateway.openterminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.openterminal.service.EscapeDecoder;
import dev.workcell.gateway.openterminal.service.HomePaths;
import dev.workcell.gateway.openterminal.service.LineWindow;
import dev.workcell.gateway.openterminal.service.TextLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pure pieces: escape decoding as Python's unicode_escape, path mapping, line splitting. */
class TerminalUnitTest {

  @Test
  void escapesDecodeAsPythonDoes() {
    assertThat(EscapeDecoder.decode("ls\\n")).isEqualTo("ls\n");
    assertThat(EscapeDecoder.decode("\\x03")).isEqualTo("\u0003");
    assertThat(EscapeDecoder.decode("a\\tb\\r\\n")).isEqualTo("a\tb\r\n");
    assertThat(EscapeDecoder.decode("\\\\n")).isEqualTo("\\n");
    assertThat(EscapeDecoder.decode("\\u00e9\\U0001F600")).isEqualTo("é\uD83D\uDE00");
    assertThat(EscapeDecoder.decode("\\101\\0")).isEqualTo("A\0");
    assertThat(EscapeDecoder.decode("\\'\\\"\\a\\b\\f\\v")).isEqualTo("'\"\u0007\b\f\u000b");
    assertThat(EscapeDecoder.decode("line\\\ncontinued")).isEqualTo("linecontinued");
    assertThat(EscapeDecoder.decode("real\nnewline é")).isEqualTo("real\nnewline é");
  }

  @Test
  void malformedOrUnknownEscapesStayAsWritten() {
    assertThat(EscapeDecoder.decode("\\q")).isEqualTo("\\q");
    assertThat(EscapeDecoder.decode("\\xZ1")).isEqualTo("\\xZ1");
    assertThat(EscapeDecoder.decode("\\u12")).isEqualTo("\\u12");
    assertThat(EscapeDecoder.decode("trailing\\")).isEqualTo("trailing\\");
  }

  @ParameterizedTest(name = "{0} in {1} → {2}")
  @CsvSource({
      "/home/user, '', ''",
      "/home/user/, '', ''",
      "~, sub, ''",
      "'', sub, sub",
      "., sub, sub",
      "x/y, sub, sub/x/y",
      "~/x, sub, x",
      "/home/user/sub/x, '', sub/x"})
  void pathsMapIntoTheHome(String path, String cwd, String expected) {
    assertThat(HomePaths.resolve(path, cwd)).isEqualTo(expected);
  }

  @Test
  void pathsLeavingTheHomeAreRefused() {
    for (String path : new String[] {"..", "../x", "a/../../b", "/", "/home", "/home/users", "/tmp/x", "a\0b", "a\\b"}) {
      assertThatThrownBy(() -> HomePaths.resolve(path, "")).as(path).isInstanceOf(WorkcellException.class);
    }
    assertThatThrownBy(() -> HomePaths.resolve("a/".repeat(600), "")).isInstanceOf(WorkcellException.class);
  }

  @Test
  void linesSplitWherePythonSplitsThem() {
    assertThat(TextLines.split("a\nb\r\nc\rd")).containsExactly("a\n", "b\r\n", "c\r", "d");
    assertThat(TextLines.split("")).isEmpty();
    assertThat(TextLines.split("x\n")).containsExactly("x\n");
    assertThat(LineWindow.of("1\n2\n3\n", 2, 99)).isEqualTo(new LineWindow.Lines(3, "2\n3\n"));
    assertThat(LineWindow.of("1\n2\n3\n", 5, null)).isEqualTo(new LineWindow.Lines(3, ""));
  }
}
