package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import java.util.Map;

/**
 * Runs a shell command as uid 1000. {@code timeoutSec} is 1..600 (null: the deployment's
 * WORK_COMMAND_TIMEOUT_MS); every process the command leaves behind is killed when it ends.
 * {@code cwd} is a directory relative to the sandbox root (null: the root); {@code env} adds
 * variables (names {@code [A-Za-z_][A-Za-z0-9_]*}); {@code execId} (optional, 1..64 of
 * {@code [A-Za-z0-9_-]}) lets {@link SandboxSubjects#EXEC_CANCEL} stop it.
 */
public record RunCommand(SandboxRef sandbox, String command, Integer timeoutSec, String cwd, Map<String, String> env,
    String execId) {

  public RunCommand(SandboxRef sandbox, String command, Integer timeoutSec) {
    this(sandbox, command, timeoutSec, null, null, null);
  }
}
