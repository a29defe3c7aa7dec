package dev.workcell.sandbox.process.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.KillProcess;
import dev.workcell.contracts.sandbox.PollProcess;
import dev.workcell.contracts.sandbox.ProcessInput;
import dev.workcell.contracts.sandbox.ProcessList;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.celld.client.ToolReplies;
import dev.workcell.sandbox.exec.service.CommandEnv;
import dev.workcell.sandbox.files.service.WorkspacePath;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import dev.workcell.sandbox.lifecycle.service.SandboxSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Background processes (the Open Terminal model), kept by celld in each sandbox. Waits (start or
 * poll with {@code waitMs}) hold no thread: the worker only sends the frame, and the reply is a
 * future that completes when celld answers — as soon as the process ends, or when the wait is over.
 * Status, input, kill and list never start a sandbox: a stopped one has no processes.
 */
@ApplicationScoped
public class BackgroundProcesses {

  public static final long MAX_WAIT_MS = 300_000;
  /** celld answers at the end of the wait; this covers the transport and a busy sandbox. */
  private static final Duration WAIT_MARGIN = Duration.ofSeconds(10);
  private static final Duration KILL_TIMEOUT = Duration.ofSeconds(30);
  private static final int INPUT_MAX_BYTES = 65_536;
  private static final Pattern PROCESS_ID = Pattern.compile("[0-9a-f]{12}");

  private final SandboxLifecycle lifecycle;

  public BackgroundProcesses(SandboxLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  public Uni<ProcessView> start(StartProcess request) {
    String command = request.command();
    if (command == null || command.isBlank() || command.codePointCount(0, command.length()) > Limits.COMMAND_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "command must be 1.." + Limits.COMMAND_MAX_CHARS + " characters");
    }
    long waitMs = waitMs(request.waitMs());
    CelldRequest.ProcStart start = new CelldRequest.ProcStart(command, waitMs,
        request.cwd() == null ? null : WorkspacePath.directory(request.cwd()),
        request.env() == null || request.env().isEmpty() ? null : CommandEnv.validate(request.env()), tail(request.tail()),
        Boolean.TRUE.equals(request.tty()) ? Boolean.TRUE : null);
    Duration timeout = Duration.ofMillis(waitMs).plus(WAIT_MARGIN);
    return lifecycle.session(request.sandbox()).onItem().transformToUni(session -> session.call(start, timeout))
        .map(ToolReplies::process);
  }

  public Uni<ProcessView> status(PollProcess request) {
    long waitMs = waitMs(request.waitMs());
    if (request.offset() < 0) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "offset must be ≥ 0");
    }
    var poll = new CelldRequest.ProcStatus(processId(request.processId()), request.offset(), waitMs, tail(request.tail()));
    return call(() -> lifecycle.useIfActive(request.sandbox()), poll, Duration.ofMillis(waitMs).plus(WAIT_MARGIN))
        .map(ToolReplies::process);
  }

  public Uni<ProcessView> input(ProcessInput request) {
    String input = request.input();
    if (input == null || input.getBytes(StandardCharsets.UTF_8).length > INPUT_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "input must be at most " + INPUT_MAX_BYTES + " UTF-8 bytes");
    }
    var stdin = new CelldRequest.ProcInput(processId(request.processId()), input);
    return call(() -> lifecycle.useIfActive(request.sandbox()), stdin, WAIT_MARGIN).map(ToolReplies::process);
  }

  public Uni<ProcessView> kill(KillProcess request) {
    var kill = new CelldRequest.ProcKill(processId(request.processId()), request.force());
    return call(() -> lifecycle.useIfActive(request.sandbox()), kill, KILL_TIMEOUT).map(ToolReplies::process);
  }

  public Uni<ProcessList> list(SandboxRef ref) {
    return Uni.createFrom().deferred(() -> lifecycle.useIfActive(ref)
        .map(session -> session.call(new CelldRequest.ProcList(), WAIT_MARGIN).map(ToolReplies::processes))
        .orElseGet(() -> Uni.createFrom().item(new ProcessList(List.of()))));
  }

  /**
   * Sends to the sandbox's running celld; the reply completes the Uni without holding a thread.
   * Nothing here starts a sandbox (asks Docker nothing), so no worker thread is needed. No active
   * sandbox: {@code not_found}.
   */
  private Uni<JsonNode> call(Supplier<Optional<SandboxSession>> session, CelldRequest request, Duration timeout) {
    return Uni.createFrom().deferred(() -> session.get()
        .map(s -> s.call(request, timeout))
        .orElseGet(() -> Uni.createFrom().failure(new WorkcellException(ErrorCode.NOT_FOUND, "no such process"))));
  }

  private static long waitMs(Long waitMs) {
    long value = waitMs == null ? 0 : waitMs;
    if (value < 0 || value > MAX_WAIT_MS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "waitMs must be 0.." + MAX_WAIT_MS);
    }
    return value;
  }

  /** The last {@code tail} output entries only; null: all of them. */
  private static Integer tail(Integer tail) {
    if (tail != null && tail < 0) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "tail must be ≥ 0");
    }
    return tail;
  }

  /** Ids are celld's 12 hex characters; anything else cannot name a process. */
  private static String processId(String id) {
    if (id == null || !PROCESS_ID.matcher(id).matches()) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such process");
    }
    return id;
  }
}
