package dev.workcell.sandbox.process.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.exec.service.CommandEnv;
import dev.workcell.sandbox.files.service.WorkspacePath;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Interactive terminals in sandboxes, the API terminal-service builds on: open (starting the
 * sandbox if needed), then input, resize, close and an output stream with credit-based
 * backpressure on the returned {@link TerminalSession}. The data path and its reasons are in
 * docs/decisions (terminal data path).
 */
@ApplicationScoped
public class TerminalSessions {

  private final SandboxLifecycle lifecycle;

  public TerminalSessions(SandboxLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  public Uni<TerminalSession> open(SandboxRef ref, TerminalOptions options, TerminalOutput output) {
    if (options.command() != null && (options.command().isBlank()
        || options.command().codePointCount(0, options.command().length()) > Limits.COMMAND_MAX_CHARS)) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "command must be 1.." + Limits.COMMAND_MAX_CHARS + " characters");
    }
    if (outside(options.cols()) || outside(options.rows())) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "cols and rows must be 1..1000");
    }
    var open = new CelldRequest.PtyOpen(options.cols(), options.rows(),
        options.cwd() == null ? null : WorkspacePath.directory(options.cwd()),
        options.env() == null || options.env().isEmpty() ? null : CommandEnv.validate(options.env()),
        options.command(), TerminalSession.WINDOW, true);
    return lifecycle.session(ref).onItem().transformToUni(lease -> TerminalSession.open(lease, open, output));
  }

  private static boolean outside(Integer size) {
    return size != null && (size < 1 || size > 1000);
  }
}
