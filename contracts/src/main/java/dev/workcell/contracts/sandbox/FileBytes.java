package dev.workcell.contracts.sandbox;

/**
 * A chunk of a file ({@code data} is base64 on the wire); {@code size} is the whole file's,
 * {@code eof} when this chunk reaches its end.
 */
public record FileBytes(String path, byte[] data, long offset, long size, boolean eof, String version) {}
