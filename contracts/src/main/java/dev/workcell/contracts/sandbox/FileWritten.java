package dev.workcell.contracts.sandbox;

/** The new version and size of a written file. */
public record FileWritten(String path, String version, long size) {}
