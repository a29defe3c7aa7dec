package dev.workcell.gateway.openterminal.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Lines as Open Terminal reads them (universal newlines, then splitlines), chunk by chunk. */
class LineWindowTest {

  @Test
  void crlfAndALoneCrBecomeNewlinesAsPythonReadsText() {
    assertThat(LineWindow.of("a\r\nb\rc\n", null, null)).isEqualTo(new LineWindow.Lines(3, "a\nb\nc\n"));
    assertThat(LineWindow.of("x\r", null, null)).isEqualTo(new LineWindow.Lines(1, "x\n"));
    assertThat(LineWindow.of("a\u000bb\u2028c", 2, 3)).isEqualTo(new LineWindow.Lines(3, "b\u2028c"));
    assertThat(TextLines.normalizeNewlines("a\r\nb\rc")).isEqualTo("a\nb\nc");
  }

  @Test
  void chunksSplitInsideACharacterOrACrlfStillDecode() {
    byte[] text = "é\r\nü\n".getBytes(StandardCharsets.UTF_8);
    LineWindow window = new LineWindow(2, 2);
    for (byte b : text) {
      window.accept(new byte[] {b});
    }
    assertThat(window.finish()).isEqualTo(new LineWindow.Lines(2, "ü\n"));
  }

  @Test
  void aRangeKeepsOnlyItsLinesHoweverLargeTheFile() {
    LineWindow window = new LineWindow(200_001, 200_001);
    byte[] chunk = "0123456789abcdef\n".repeat(30_000).getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < 10; i++) {
      window.accept(chunk); // 5.1 MB in all, far beyond the 2,000,000-byte cap of a whole read
    }
    assertThat(window.finish()).isEqualTo(new LineWindow.Lines(300_000, "0123456789abcdef\n"));
  }

  @Test
  void invalidUtf8AndAnOversizedRangeAreRefused() {
    assertThatThrownBy(() -> new LineWindow(null, null).accept(new byte[] {'a', (byte) 0xff}).finish())
        .isInstanceOf(WorkcellException.class).extracting(e -> ((WorkcellException) e).code()).isEqualTo(ErrorCode.NOT_UTF8);
    assertThatThrownBy(() -> new LineWindow(null, null).accept(new byte[] {'a', (byte) 0xc3}).finish())
        .isInstanceOf(WorkcellException.class);
    LineWindow whole = new LineWindow(null, null);
    assertThatThrownBy(() -> whole.accept(new byte[2_000_001]))
        .extracting(e -> ((WorkcellException) e).code()).isEqualTo(ErrorCode.FILE_TOO_LARGE);
  }
}
