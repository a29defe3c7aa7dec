package dev.workcell.gateway.terminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** A zip built in memory with a cap on the file bytes it takes in (413 beyond it). */
public final class ZipBuilder {

  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
  private final ZipOutputStream zip = new ZipOutputStream(buffer);
  private final long maxBytes;
  private final int maxFiles;
  private long taken;
  private int files;

  public ZipBuilder(long maxBytes, int maxFiles) {
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
  }

  /** Whether {@code size} more bytes still fit; checked before a file is read. */
  public void reserve(long size) {
    if (++files > maxFiles) {
      throw new WorkcellException(ErrorCode.PAYLOAD_TOO_LARGE, "An archive holds at most " + maxFiles + " files");
    }
    if (taken + size > maxBytes) {
      throw new WorkcellException(ErrorCode.PAYLOAD_TOO_LARGE, "An archive holds at most " + maxBytes + " bytes of files");
    }
    taken += size;
  }

  public synchronized void add(String name, byte[] data) {
    try {
      zip.putNextEntry(new ZipEntry(name));
      zip.write(data);
      zip.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public synchronized byte[] finish() {
    try {
      zip.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buffer.toByteArray();
  }
}
