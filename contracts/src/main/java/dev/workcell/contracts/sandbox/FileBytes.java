package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.Bulk;

/**
 * A chunk of a file ({@code data} raw after the JSON when large, see {@link Bulk}, else base64); {@code size} is the whole file's,
 * {@code eof} when this chunk reaches its end.
 */
public record FileBytes(String path, @Bulk byte[] data, long offset, long size, boolean eof, String version) {}
