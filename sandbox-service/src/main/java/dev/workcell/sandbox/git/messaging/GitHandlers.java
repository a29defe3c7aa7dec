package dev.workcell.sandbox.git.messaging;

import dev.workcell.contracts.sandbox.GitQuery;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.git.service.GitInspector;
import dev.workcell.sandbox.messaging.Offload;
import dev.workcell.sandbox.messaging.SandboxAccess;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves git.status and git.diff. */
@ApplicationScoped
public class GitHandlers {

  private final NatsResponder responder;
  private final GitInspector git;

  public GitHandlers(NatsResponder responder, GitInspector git) {
    this.responder = responder;
    this.git = git;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.GIT_STATUS, r -> Offload.blocking(() -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return git.status(r.body());
    }));
    responder.serve(SandboxSubjects.GIT_DIFF, r -> Offload.blocking(() -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return git.diff(r.body());
    }));
  }
}
