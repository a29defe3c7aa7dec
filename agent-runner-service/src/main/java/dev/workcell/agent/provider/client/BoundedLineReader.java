package dev.workcell.agent.provider.client;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.io.IOException;
import java.io.Reader;

/**
 * Lines of a provider's stream (ended by \n, \r\n or \r), as {@link java.io.BufferedReader#readLine()}
 * reads them but bounded: a line longer than {@code maxChars} fails the round ({@code provider_error})
 * instead of growing the heap with whatever a broken or hostile endpoint sends.
 */
final class BoundedLineReader {

  private final Reader in;
  private final int maxChars;
  private final char[] buffer = new char[8192];
  private int pos;
  private int end;
  private boolean skipLf;

  BoundedLineReader(Reader in, int maxChars) {
    this.in = in;
    this.maxChars = maxChars;
  }

  /** The next line into {@code line}; false at the end of the stream. */
  boolean next(StringBuilder line) throws IOException {
    line.setLength(0);
    while (true) {
      if (pos == end) {
        end = in.read(buffer, 0, buffer.length);
        pos = 0;
        if (end == -1) {
          end = 0;
          return !line.isEmpty();
        }
      }
      if (skipLf) {
        skipLf = false;
        if (buffer[pos] == '\n') {
          pos++;
          continue;
        }
      }
      int start = pos;
      while (pos < end && buffer[pos] != '\n' && buffer[pos] != '\r') {
        pos++;
      }
      if (line.length() + (pos - start) > maxChars) {
        throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "the provider sent a line longer than " + maxChars + " characters");
      }
      line.append(buffer, start, pos - start);
      if (pos < end) {
        skipLf = buffer[pos++] == '\r';
        return true;
      }
    }
  }
}
