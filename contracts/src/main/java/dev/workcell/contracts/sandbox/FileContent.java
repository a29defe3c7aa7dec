package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.Bulk;

/** A file's text and the version to pass back as {@link WriteFile#expectedVersion}. */
public record FileContent(String path, @Bulk String content, long size, String version) {}
