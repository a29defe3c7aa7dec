package dev.workcell.sandbox.preview.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.PreviewState;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.admission.service.RuntimeAdmission;
import dev.workcell.sandbox.celld.client.CelldReplies;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import dev.workcell.sandbox.lifecycle.service.SandboxSession;
import dev.workcell.sandbox.runtime.PreviewEndpoint;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.task.client.TaskPreviews;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;

/**
 * The task's one preview process, started by celld and published by the runtime on a
 * Docker-assigned loopback port. Only a sandbox with network can have one. A verified (running)
 * preview holds the sandbox's slot until it is stopped or found gone. Every start and stop is
 * reported to task-service, whose generation counter revokes signed URLs of earlier runs. Blocking.
 */
@ApplicationScoped
public class PreviewControl {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(Limits.PREVIEW_READY_SECONDS + 30);
  private static final Duration QUICK_TIMEOUT = Duration.ofSeconds(20);

  private final SandboxLifecycle lifecycle;
  private final SandboxDriver driver;
  private final RuntimeAdmission admission;
  private final TaskPreviews reports;
  private final int port;

  public PreviewControl(SandboxLifecycle lifecycle, SandboxDriver driver, RuntimeAdmission admission, TaskPreviews reports,
      SandboxSettings settings) {
    this.lifecycle = lifecycle;
    this.driver = driver;
    this.admission = admission;
    this.reports = reports;
    this.port = settings.previewPort();
  }

  public PreviewState start(SandboxRef ref, String command) {
    String cmd = command == null ? "" : command.strip();
    if (cmd.codePointCount(0, cmd.length()) > Limits.COMMAND_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "command exceeds " + Limits.COMMAND_MAX_CHARS + " characters");
    }
    try (SandboxSession session = lifecycle.use(ref)) {
      if (!session.spec().network()) {
        throw new WorkcellException(ErrorCode.NETWORK_DISABLED, "the task's runtime policy has no network, so it cannot serve a preview");
      }
      // First revoke the old run's URLs (new generation), then start; a failed start reports stopped.
      reports.report(ref.taskId(), "starting", null, cmd.isEmpty() ? null : cmd);
      PreviewState state;
      try {
        state = state(ref, session, CelldReplies.preview(session.celld().call(new CelldRequest.PreviewStart(cmd, port), START_TIMEOUT)));
      } catch (RuntimeException e) {
        reports.report(ref.taskId(), "stopped", null, null);
        throw e;
      }
      reports.report(ref.taskId(), state.running() ? "ready" : "stopped", state.hostPort(), state.command());
      return state;
    }
  }

  public PreviewState stop(SandboxRef ref) {
    reports.report(ref.taskId(), "stopped", null, null);
    Optional<SandboxSession> active = lifecycle.useIfActive(ref);
    if (active.isEmpty()) {
      return stopped(ref);
    }
    try (SandboxSession session = active.get()) {
      session.celld().call(new CelldRequest.PreviewStop(), QUICK_TIMEOUT);
      return stopped(ref);
    } finally {
      admission.releaseHold(SandboxKey.of(ref).id(), RuntimeAdmission.PREVIEW);
    }
  }

  public PreviewState status(SandboxRef ref) {
    Optional<SandboxSession> active = lifecycle.useIfActive(ref);
    if (active.isEmpty()) {
      return stopped(ref);
    }
    try (SandboxSession session = active.get()) {
      return state(ref, session, CelldReplies.preview(session.celld().call(new CelldRequest.PreviewStatus(), QUICK_TIMEOUT)));
    }
  }

  private PreviewState state(SandboxRef ref, SandboxSession session, CelldReplies.PreviewStatus status) {
    String id = session.key().id();
    if (!status.running()) {
      admission.releaseHold(id, RuntimeAdmission.PREVIEW);
      return stopped(ref);
    }
    if (!session.key().home()) { // homes keep their own idle rule
      admission.hold(id, session.key().admissionOwner(), RuntimeAdmission.PREVIEW, 0, 0);
    }
    Optional<PreviewEndpoint> endpoint = driver.previewEndpoint(session.instance());
    return new PreviewState(ref.taskId(), true, status.command(), port,
        endpoint.map(PreviewEndpoint::hostAddress).orElse(null), endpoint.map(PreviewEndpoint::hostPort).orElse(null));
  }

  private PreviewState stopped(SandboxRef ref) {
    return new PreviewState(ref.taskId(), false, null, port, null, null);
  }
}
