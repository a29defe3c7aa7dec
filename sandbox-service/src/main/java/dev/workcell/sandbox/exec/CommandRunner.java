package dev.workcell.sandbox.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.ExecCancelled;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.celld.CelldConnection;
import dev.workcell.sandbox.celld.CelldReplies;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.files.WorkspacePath;
import dev.workcell.sandbox.lifecycle.SandboxLifecycle;
import dev.workcell.sandbox.lifecycle.SandboxSession;
import dev.workcell.sandbox.runtime.SandboxKey;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Runs one command to completion through celld, which enforces the timeout (TERM, then KILL) and
 * kills everything the command leaves behind. A command with an {@code execId} can be cancelled
 * from another request while it runs. Blocking.
 */
@ApplicationScoped
public class CommandRunner {

  /** celld's kill grace and leftover sweep, plus transport slack, on top of the command's own timeout. */
  private static final Duration REPLY_SLACK = Duration.ofSeconds(30);
  private static final Pattern EXEC_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private final SandboxLifecycle lifecycle;
  private final SandboxSettings settings;
  /** Commands with an execId in flight: sandbox key id + execId → where to send the cancel. */
  private final Map<String, Running> running = new ConcurrentHashMap<>();

  private record Running(CelldConnection celld, long requestId) {}

  public CommandRunner(SandboxLifecycle lifecycle, SandboxSettings settings) {
    this.lifecycle = lifecycle;
    this.settings = settings;
  }

  public CommandResult run(SandboxRef ref, String command, Integer timeoutSec) {
    return run(new RunCommand(ref, command, timeoutSec));
  }

  public CommandResult run(RunCommand request) {
    String command = request.command();
    if (command == null || command.isBlank() || command.codePointCount(0, command.length()) > Limits.COMMAND_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "command must be 1.." + Limits.COMMAND_MAX_CHARS + " characters");
    }
    int timeout = request.timeoutSec() != null ? request.timeoutSec() : (int) Math.ceilDiv(settings.commandTimeoutMs(), 1000L);
    if (timeout < Limits.COMMAND_TIMEOUT_MIN_SECONDS || timeout > Limits.COMMAND_TIMEOUT_MAX_SECONDS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT,
          "timeoutSec must be " + Limits.COMMAND_TIMEOUT_MIN_SECONDS + ".." + Limits.COMMAND_TIMEOUT_MAX_SECONDS);
    }
    ObjectNode args = JsonNodeFactory.instance.objectNode().put("command", command).put("timeoutSec", timeout);
    if (request.cwd() != null) {
      args.put("cwd", WorkspacePath.directory(request.cwd()));
    }
    if (request.env() != null && !request.env().isEmpty()) {
      args.set("env", CommandEnv.validate(request.env()));
    }
    String execId = request.execId();
    if (execId != null && !EXEC_ID.matcher(execId).matches()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "execId must be 1..64 of A-Z a-z 0-9 _ -");
    }
    Duration deadline = Duration.ofSeconds(timeout).plus(REPLY_SLACK);
    try (SandboxSession session = lifecycle.use(request.sandbox())) {
      if (execId == null) {
        return CelldReplies.commandResult(session.celld().call("exec", args, deadline), settings.maxOutputChars());
      }
      String key = runningKey(session.key(), execId);
      // Registered before the frame is sent, so a cancel arriving at once still finds it.
      Running slot = new Running(session.celld(), -1);
      if (running.putIfAbsent(key, slot) != null) {
        throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "a command with execId " + execId + " is already running");
      }
      try {
        CelldConnection.Sent sent = session.celld().send("exec", args);
        running.replace(key, slot, new Running(session.celld(), sent.id()));
        return CelldReplies.commandResult(await(session.celld(), sent, deadline), settings.maxOutputChars());
      } finally {
        running.remove(key);
      }
    }
  }

  /** Stops the command with this execId in this sandbox; false when none runs (or it has not been sent yet). */
  public ExecCancelled cancel(SandboxRef ref, String execId) {
    if (execId == null || !EXEC_ID.matcher(execId).matches()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "execId must be 1..64 of A-Z a-z 0-9 _ -");
    }
    Running target = running.get(runningKey(SandboxKey.of(ref), execId));
    if (target == null || target.requestId() < 0) {
      return new ExecCancelled(execId, false);
    }
    target.celld().cancel(target.requestId());
    return new ExecCancelled(execId, true);
  }

  private static JsonNode await(CelldConnection celld, CelldConnection.Sent sent, Duration deadline) {
    try {
      return sent.reply().get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      celld.cancel(sent.id());
      throw new WorkcellException(ErrorCode.UPSTREAM_TIMEOUT, "celld did not answer within " + deadline.toSeconds() + " s");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WorkcellException known) {
        throw new WorkcellException(known.code(), known.getMessage(), known);
      }
      throw new WorkcellException(ErrorCode.INTERNAL, "celld call failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      celld.cancel(sent.id());
      throw new WorkcellException(ErrorCode.CANCELLED, "interrupted while waiting for celld");
    }
  }

  private static String runningKey(SandboxKey key, String execId) {
    return key.id() + "/" + execId;
  }
}
