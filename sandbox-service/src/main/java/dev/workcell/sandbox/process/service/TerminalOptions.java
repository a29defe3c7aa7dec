package dev.workcell.sandbox.process.service;

import java.util.Map;

/**
 * How to open a terminal: its size (null: 80x24), {@code cwd} relative to the sandbox root (null:
 * the root, {@code /workspace} for a task, the home for a user), extra {@code env} ({@code TERM} is
 * xterm-256color unless set here), {@code command} (null: a login shell).
 */
public record TerminalOptions(Integer cols, Integer rows, String cwd, Map<String, String> env, String command) {

  public static TerminalOptions shell(int cols, int rows) {
    return new TerminalOptions(cols, rows, null, null, null);
  }
}
