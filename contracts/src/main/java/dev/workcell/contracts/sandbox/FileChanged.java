package dev.workcell.contracts.sandbox;

/** The answer to delete, move and mkdir: {@code changed} is false only for mkdir of an existing directory. */
public record FileChanged(String path, boolean changed) {}
