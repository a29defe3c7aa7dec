package dev.workcell.sandbox.exec.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.ExecCancelled;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.celld.client.CelldConnection;
import dev.workcell.sandbox.celld.client.CelldReplies;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.files.service.WorkspacePath;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import dev.workcell.sandbox.runtime.SandboxKey;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Runs one command to completion through celld, which enforces the timeout (TERM, then KILL) and
 * kills everything the command leaves behind. A command with an {@code execId} streams its output
 * live ({@link ExecOutputPublisher}) and can be cancelled from another request while it runs. No
 * thread waits for the command: celld's reply completes the Uni.
 */
@ApplicationScoped
public class CommandRunner {

  /** celld's kill grace and leftover sweep, plus transport slack, on top of the command's own timeout. */
  private static final Duration REPLY_SLACK = Duration.ofSeconds(30);
  private static final Pattern EXEC_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private final SandboxLifecycle lifecycle;
  private final SandboxSettings settings;
  private final ExecOutputPublisher output;
  /** Commands with an execId in flight: sandbox key id + execId → where to send the cancel. */
  private final Map<String, Running> running = new ConcurrentHashMap<>();

  /** A command with an execId: its celld request id once sent; a cancel that comes first is kept until then. */
  private static final class Running {
    final CelldConnection celld;
    long requestId = -1;
    boolean cancelRequested;

    Running(CelldConnection celld) {
      this.celld = celld;
    }

    synchronized void sent(long id) {
      requestId = id;
      if (cancelRequested) {
        celld.cancel(id);
      }
    }

    synchronized void cancel() {
      cancelRequested = true;
      if (requestId >= 0) {
        celld.cancel(requestId);
      }
    }
  }

  public CommandRunner(SandboxLifecycle lifecycle, SandboxSettings settings, ExecOutputPublisher output) {
    this.lifecycle = lifecycle;
    this.settings = settings;
    this.output = output;
  }

  public Uni<CommandResult> run(RunCommand request) {
    String command = request.command();
    if (command == null || command.isBlank() || command.codePointCount(0, command.length()) > Limits.COMMAND_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "command must be 1.." + Limits.COMMAND_MAX_CHARS + " characters");
    }
    int timeout = request.timeoutSec() != null ? request.timeoutSec() : (int) Math.ceilDiv(settings.commandTimeoutMs(), 1000L);
    if (timeout < Limits.COMMAND_TIMEOUT_MIN_SECONDS || timeout > Limits.COMMAND_TIMEOUT_MAX_SECONDS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT,
          "timeoutSec must be " + Limits.COMMAND_TIMEOUT_MIN_SECONDS + ".." + Limits.COMMAND_TIMEOUT_MAX_SECONDS);
    }
    CelldRequest.Exec exec = new CelldRequest.Exec(command, timeout,
        request.cwd() == null ? null : WorkspacePath.directory(request.cwd()),
        request.env() == null || request.env().isEmpty() ? null : CommandEnv.validate(request.env()));
    String execId = request.execId();
    if (execId != null && !EXEC_ID.matcher(execId).matches()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "execId must be 1..64 of A-Z a-z 0-9 _ -");
    }
    Duration deadline = Duration.ofSeconds(timeout).plus(REPLY_SLACK);
    int maxOutput = settings.maxOutputChars();
    return lifecycle.session(request.sandbox()).onItem().transformToUni(session -> {
      if (execId == null) {
        return session.call(exec, deadline).map(result -> CelldReplies.commandResult(result, maxOutput));
      }
      String key = runningKey(session.key(), execId);
      // Registered before the frame is sent, so a cancel arriving at once still stops it.
      Running slot = new Running(session.celld());
      if (running.putIfAbsent(key, slot) != null) {
        session.close();
        return Uni.createFrom().failure(
            new WorkcellException(ErrorCode.INVALID_ARGUMENT, "a command with execId " + execId + " is already running"));
      }
      Runnable done = () -> {
        running.remove(key, slot);
        session.close();
      };
      CompletableFuture<JsonNode> reply;
      try {
        CelldConnection.Sent sent = session.celld().send(exec, output.sinkFor(execId));
        slot.sent(sent.id());
        reply = session.celld().awaitAsync(sent, deadline);
      } catch (RuntimeException e) {
        done.run();
        return Uni.createFrom().failure(e);
      }
      return Uni.createFrom().completionStage(reply).onTermination().invoke(done)
          .map(result -> CelldReplies.commandResult(result, maxOutput));
    });
  }

  /** Stops the command with this execId in this sandbox; false when none runs. */
  public ExecCancelled cancel(SandboxRef ref, String execId) {
    if (execId == null || !EXEC_ID.matcher(execId).matches()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "execId must be 1..64 of A-Z a-z 0-9 _ -");
    }
    Running target = running.get(runningKey(SandboxKey.of(ref), execId));
    if (target == null) {
      return new ExecCancelled(execId, false);
    }
    target.cancel();
    return new ExecCancelled(execId, true);
  }

  private static String runningKey(SandboxKey key, String execId) {
    return key.id() + "/" + execId;
  }
}
