package dev.workcell.sandbox.process.service;

/** How a terminal session ended: the shell's exit status, and whether it was closed rather than exited. */
public record TerminalEnd(int exitCode, boolean closed) {}
