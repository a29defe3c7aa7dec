package dev.workcell.sandbox.git.messaging;

import dev.workcell.contracts.sandbox.GitQuery;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.sandbox.git.service.GitInspector;
import dev.workcell.sandbox.git.service.GitWriter;
import dev.workcell.sandbox.messaging.Offload;
import dev.workcell.sandbox.messaging.SandboxAccess;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.function.Function;

/** Serves the git reads (status, diff) and writes (init, stage, commit, branch.create, switch), each after the access check. */
@ApplicationScoped
public class GitHandlers {

  private final NatsResponder responder;
  private final GitInspector git;
  private final GitWriter writer;

  public GitHandlers(NatsResponder responder, GitInspector git, GitWriter writer) {
    this.responder = responder;
    this.git = git;
    this.writer = writer;
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
    serve(SandboxSubjects.GIT_INIT, b -> b.sandbox(), writer::init);
    serve(SandboxSubjects.GIT_STAGE, b -> b.sandbox(), writer::stage);
    serve(SandboxSubjects.GIT_COMMIT, b -> b.sandbox(), writer::commit);
    serve(SandboxSubjects.GIT_BRANCH_CREATE, b -> b.sandbox(), writer::createBranch);
    serve(SandboxSubjects.GIT_SWITCH, b -> b.sandbox(), writer::switchBranch);
  }

  private <Q, R> void serve(Subject<Q, R> subject, Function<Q, SandboxRef> sandbox, Function<Q, R> write) {
    responder.serve(subject, r -> Offload.blocking(() -> {
      SandboxAccess.require(r.actor(), sandbox.apply(r.body()));
      return write.apply(r.body());
    }));
  }
}
