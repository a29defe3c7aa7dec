package dev.workcell.sandbox.exec;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.celld.CelldReplies;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.lifecycle.SandboxLifecycle;
import dev.workcell.sandbox.lifecycle.SandboxSession;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Runs one command to completion through celld, which enforces the timeout (TERM, then KILL) and
 * kills everything the command leaves behind. Blocking.
 */
@ApplicationScoped
public class CommandRunner {

  /** celld's kill grace and leftover sweep, plus transport slack, on top of the command's own timeout. */
  private static final Duration REPLY_SLACK = Duration.ofSeconds(30);

  private final SandboxLifecycle lifecycle;
  private final SandboxSettings settings;

  public CommandRunner(SandboxLifecycle lifecycle, SandboxSettings settings) {
    this.lifecycle = lifecycle;
    this.settings = settings;
  }

  public CommandResult run(SandboxRef ref, String command, Integer timeoutSec) {
    if (command == null || command.isBlank() || command.codePointCount(0, command.length()) > Limits.COMMAND_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "command must be 1.." + Limits.COMMAND_MAX_CHARS + " characters");
    }
    int timeout = timeoutSec != null ? timeoutSec : (int) Math.ceilDiv(settings.commandTimeoutMs(), 1000L);
    if (timeout < Limits.COMMAND_TIMEOUT_MIN_SECONDS || timeout > Limits.COMMAND_TIMEOUT_MAX_SECONDS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT,
          "timeoutSec must be " + Limits.COMMAND_TIMEOUT_MIN_SECONDS + ".." + Limits.COMMAND_TIMEOUT_MAX_SECONDS);
    }
    var args = JsonNodeFactory.instance.objectNode().put("command", command).put("timeoutSec", timeout);
    try (SandboxSession session = lifecycle.use(ref)) {
      var result = session.celld().call("exec", args, Duration.ofSeconds(timeout).plus(REPLY_SLACK));
      return CelldReplies.commandResult(result, settings.maxOutputChars());
    }
  }
}
