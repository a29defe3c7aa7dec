package dev.workcell.sandbox.messaging;

import dev.workcell.contracts.sandbox.DeleteFile;
import dev.workcell.contracts.sandbox.GlobFiles;
import dev.workcell.contracts.sandbox.GrepFiles;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.MakeDirectory;
import dev.workcell.contracts.sandbox.MoveFile;
import dev.workcell.contracts.sandbox.ReadBytes;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SearchFiles;
import dev.workcell.contracts.sandbox.StatFile;
import dev.workcell.contracts.sandbox.WriteBytes;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.files.FileSearch;
import dev.workcell.sandbox.files.WorkspaceFiles;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Serves the workspace file subjects. File operations answer from celld's reply without a worker
 * thread (the hot path); grep and glob still run on one.
 */
@ApplicationScoped
public class FileResponder {

  private final NatsResponder responder;
  private final WorkspaceFiles files;
  private final FileSearch search;

  public FileResponder(NatsResponder responder, WorkspaceFiles files, FileSearch search) {
    this.responder = responder;
    this.files = files;
    this.search = search;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.FILES_LIST, ListFiles.class, r ->
        files.list(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path()));
    responder.serve(SandboxSubjects.FILES_STAT, StatFile.class, r ->
        files.stat(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path()));
    responder.serve(SandboxSubjects.FILES_READ, ReadFile.class, r ->
        files.read(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path()));
    responder.serve(SandboxSubjects.FILES_WRITE, WriteFile.class, r ->
        files.write(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().content(),
            r.body().expectedVersion(), r.body().createParents()));
    responder.serve(SandboxSubjects.FILES_DELETE, DeleteFile.class, r ->
        files.delete(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().recursive()));
    responder.serve(SandboxSubjects.FILES_MOVE, MoveFile.class, r ->
        files.move(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().from(), r.body().to()));
    responder.serve(SandboxSubjects.FILES_MKDIR, MakeDirectory.class, r ->
        files.mkdir(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().parents()));
    responder.serve(SandboxSubjects.FILES_SEARCH, SearchFiles.class, r ->
        files.search(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().query(), r.body().maxHits()));
    responder.serve(SandboxSubjects.FILES_READ_BYTES, ReadBytes.class, r ->
        files.readBytes(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().offset(), r.body().limit()));
    responder.serve(SandboxSubjects.FILES_WRITE_BYTES, WriteBytes.class, r ->
        files.writeBytes(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().data(),
            r.body().expectedVersion(), r.body().createParents()));
    responder.serve(SandboxSubjects.FILES_GREP, GrepFiles.class, r -> Offload.blocking(() -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return search.grep(r.body());
    }));
    responder.serve(SandboxSubjects.FILES_GLOB, GlobFiles.class, r -> Offload.blocking(() -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return search.glob(r.body());
    }));
  }
}
