package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A zip written as it is sent: each call returns the bytes the encoder produced so far, so an
 * archive holds about one file chunk in memory however large it is. Caps are checked up front,
 * before anything is sent (413 beyond them).
 */
public final class ZipStream {

  private final Drain out = new Drain();
  private final ZipOutputStream zip = new ZipOutputStream(out);
  private final long maxBytes;
  private final int maxFiles;
  private long taken;
  private int files;

  public ZipStream(long maxBytes, int maxFiles) {
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
  }

  /** Whether a file of {@code size} bytes still fits; checked for every file before the first byte goes out. */
  public void reserve(long size) {
    if (++files > maxFiles) {
      throw new WorkcellException(ErrorCode.PAYLOAD_TOO_LARGE, "An archive holds at most " + maxFiles + " files");
    }
    if (taken + size > maxBytes) {
      throw new WorkcellException(ErrorCode.PAYLOAD_TOO_LARGE, "An archive holds at most " + maxBytes + " bytes of files");
    }
    taken += size;
  }

  public synchronized byte[] begin(String name) {
    return io(() -> zip.putNextEntry(new ZipEntry(name)));
  }

  public synchronized byte[] write(byte[] data) {
    return io(() -> zip.write(data));
  }

  public synchronized byte[] end() {
    return io(zip::closeEntry);
  }

  /** The central directory: the last bytes of the archive. */
  public synchronized byte[] finish() {
    return io(zip::finish);
  }

  private byte[] io(IoStep step) {
    try {
      step.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.take();
  }

  private interface IoStep {
    void run() throws IOException;
  }

  private static final class Drain extends ByteArrayOutputStream {
    byte[] take() {
      byte[] produced = toByteArray();
      reset();
      return produced;
    }
  }
}
