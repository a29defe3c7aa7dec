package dev.workcell.contracts.sandbox;

/** A file's text and the version to pass back as {@link WriteFile#expectedVersion}. */
public record FileContent(String path, String content, long size, String version) {}
