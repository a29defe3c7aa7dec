package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import java.util.Map;

/**
 * Starts a background process (shell command, 1..20,000 characters) in {@code cwd} (relative to the
 * sandbox root; null: the root) with extra {@code env}. Its stdin stays open for
 * {@link SandboxSubjects#PROCESS_INPUT}. {@code waitMs} 0..300,000 waits for it to finish before
 * answering (null/0: answer at once). {@code tty} true runs it on a terminal of its own (80x24), as
 * Open Terminal runs every command: input is typed at the terminal (echoed; {@code \u0003}
 * interrupts), and stdout and stderr arrive merged as entries of type {@code output}.
 */
public record StartProcess(SandboxRef sandbox, String command, String cwd, Map<String, String> env, Long waitMs,
    Integer tail, Boolean tty) {

  /** Without a terminal: stdin a pipe, stdout and stderr apart. */
  public StartProcess(SandboxRef sandbox, String command, String cwd, Map<String, String> env, Long waitMs, Integer tail) {
    this(sandbox, command, cwd, env, waitMs, tail, null);
  }
}
