package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A text file read chunk by chunk as Open Terminal reads it (strict UTF-8, universal newlines, then
 * {@code splitlines(keepends=True)}): every line is counted, only the requested ones are kept, so a
 * line range of a file of any size holds no more than that range (at most 2,000,000 UTF-8 bytes).
 */
public final class LineWindow {

  /** What read_file answers: the total number of lines and the requested ones, joined. */
  public record Lines(int total, String content) {}

  private final int first;
  private final long last;
  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
  private final CharBuffer chars = CharBuffer.allocate(64 * 1024);
  private final StringBuilder kept = new StringBuilder();
  private ByteBuffer pending = ByteBuffer.allocate(0);
  private long keptBytes;
  private int lines;
  private boolean lineOpen;
  private boolean afterCr;

  /** Lines {@code startLine..endLine} (1-based, inclusive; null: from the first / to the last). */
  public LineWindow(Integer startLine, Integer endLine) {
    this.first = startLine == null ? 0 : startLine - 1;
    this.last = endLine == null ? Long.MAX_VALUE : endLine;
  }

  /** The lines of a text already in memory (an extracted document). */
  public static Lines of(String text, Integer startLine, Integer endLine) {
    LineWindow window = new LineWindow(startLine, endLine);
    window.accept(text);
    return window.finish();
  }

  /** The next bytes of the file; throws {@code not_utf8} at the first byte that is not UTF-8. */
  public LineWindow accept(byte[] data) {
    ByteBuffer in = ByteBuffer.allocate(pending.remaining() + data.length).put(pending).put(data).flip();
    decode(in, false);
    pending = in;
    return this;
  }

  public Lines finish() {
    decode(pending, true);
    if (afterCr) {
      endLine('\n');
    }
    if (lineOpen) {
      lines++;
    }
    return new Lines(lines, kept.toString());
  }

  private void decode(ByteBuffer in, boolean end) {
    CoderResult result;
    do {
      result = decoder.decode(in, chars, end);
      if (result.isError()) {
        throw new WorkcellException(ErrorCode.NOT_UTF8, "not valid UTF-8");
      }
      drain();
    } while (result.isOverflow());
    if (end) {
      decoder.flush(chars);
      drain();
    }
  }

  private void drain() {
    chars.flip();
    accept(chars);
    chars.clear();
  }

  private void accept(CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (afterCr) {
        afterCr = false;
        endLine('\n'); // "\r\n" and a lone "\r" both end a line with "\n"
        if (c == '\n') {
          continue;
        }
      }
      if (c == '\r') {
        afterCr = true;
        lineOpen = true;
        continue;
      }
      keep(c);
      lineOpen = true;
      if (TextLines.breaks(c)) {
        lines++;
        lineOpen = false;
      }
    }
  }

  private void endLine(char terminator) {
    keep(terminator);
    lines++;
    lineOpen = false;
  }

  private void keep(char c) {
    if (lines < first || lines >= last) {
      return;
    }
    keptBytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
    if (keptBytes > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE,
          "The requested lines exceed " + Limits.FILE_MAX_BYTES + " UTF-8 bytes; ask for a smaller range");
    }
    kept.append(c);
  }
}
