package dev.workcell.contracts.sandbox;

/**
 * One workspace entry. {@code type}: file, dir, symlink or other; {@code mode} holds permission bits;
 * {@code version} (stat only) changes on every write and is what {@link WriteFile#expectedVersion} compares.
 */
public record FileEntry(String name, String type, long size, long mtimeMs, int mode, String version) {}
