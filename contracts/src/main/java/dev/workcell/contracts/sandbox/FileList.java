package dev.workcell.contracts.sandbox;

import java.util.List;

/** A directory listing, sorted by name; {@code truncated} when it held more than 1,000 entries. */
public record FileList(String path, List<FileEntry> entries, boolean truncated) {}
