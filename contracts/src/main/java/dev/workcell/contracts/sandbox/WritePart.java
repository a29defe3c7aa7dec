package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.Bulk;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * One part (at most 2,000,000 bytes) of a file of any size written in parts, each its own request:
 * restores of large or binary files. The parts go in order into a hidden part file beside
 * {@code path} named by {@code upload} (16..64 lowercase hex digits, the caller's); {@code offset} 0
 * starts it afresh, a later one must not be past what it holds (a resent part is harmless). The
 * {@code last} part renames it over {@code path}, so the file is never seen half written.
 * {@code mode} (0..0777, null: the replaced file's, else 0644) applies at the last part,
 * {@code createParents} at offset 0. The reply's version is null until the last part.
 */
public record WritePart(SandboxRef sandbox, String path, String upload, long offset, @Bulk byte[] data, boolean last,
    boolean createParents, Integer mode) {}
