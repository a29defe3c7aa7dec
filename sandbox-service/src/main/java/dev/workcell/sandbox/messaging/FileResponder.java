package dev.workcell.sandbox.messaging;

import dev.workcell.contracts.sandbox.DeleteFile;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.MakeDirectory;
import dev.workcell.contracts.sandbox.MoveFile;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SearchFiles;
import dev.workcell.contracts.sandbox.StatFile;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.files.WorkspaceFiles;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves the workspace file subjects. */
@ApplicationScoped
public class FileResponder {

  private final NatsResponder responder;
  private final WorkspaceFiles files;

  public FileResponder(NatsResponder responder, WorkspaceFiles files) {
    this.responder = responder;
    this.files = files;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.FILES_LIST, ListFiles.class, r -> Offload.blocking(() ->
        files.list(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path())));
    responder.serve(SandboxSubjects.FILES_STAT, StatFile.class, r -> Offload.blocking(() ->
        files.stat(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path())));
    responder.serve(SandboxSubjects.FILES_READ, ReadFile.class, r -> Offload.blocking(() ->
        files.read(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path())));
    responder.serve(SandboxSubjects.FILES_WRITE, WriteFile.class, r -> Offload.blocking(() ->
        files.write(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().content(),
            r.body().expectedVersion(), r.body().createParents())));
    responder.serve(SandboxSubjects.FILES_DELETE, DeleteFile.class, r -> Offload.blocking(() ->
        files.delete(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().recursive())));
    responder.serve(SandboxSubjects.FILES_MOVE, MoveFile.class, r -> Offload.blocking(() ->
        files.move(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().from(), r.body().to())));
    responder.serve(SandboxSubjects.FILES_MKDIR, MakeDirectory.class, r -> Offload.blocking(() ->
        files.mkdir(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().parents())));
    responder.serve(SandboxSubjects.FILES_SEARCH, SearchFiles.class, r -> Offload.blocking(() ->
        files.search(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().query(), r.body().maxHits())));
  }
}
