package dev.workcell.sandbox.files.messaging;

import dev.workcell.contracts.sandbox.DeleteFile;
import dev.workcell.contracts.sandbox.GlobFiles;
import dev.workcell.contracts.sandbox.GrepFiles;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.MakeDirectory;
import dev.workcell.contracts.sandbox.MoveFile;
import dev.workcell.contracts.sandbox.ReadBytes;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SearchFiles;
import dev.workcell.contracts.sandbox.StatFile;
import dev.workcell.contracts.sandbox.WriteBytes;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.sandbox.budget.service.SandboxBudget;
import dev.workcell.sandbox.files.service.FileSearch;
import dev.workcell.sandbox.files.service.WorkspaceFiles;
import dev.workcell.sandbox.messaging.Offload;
import dev.workcell.sandbox.messaging.SandboxAccess;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Serves the workspace file subjects. File operations answer from celld's reply without a worker
 * thread (the hot path); grep and glob still run on one.
 */
@ApplicationScoped
public class FileHandlers {

  private final NatsResponder responder;
  private final WorkspaceFiles files;
  private final FileSearch search;
  private final SandboxBudget budget;

  public FileHandlers(NatsResponder responder, WorkspaceFiles files, FileSearch search, SandboxBudget budget) {
    this.responder = responder;
    this.files = files;
    this.search = search;
    this.budget = budget;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(SandboxSubjects.FILES_LIST, r ->
        files.list(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path()));
    responder.serve(SandboxSubjects.FILES_STAT, r ->
        files.stat(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path()));
    // Contents in memory are counted per user (SandboxBudget): a write from its request until celld
    // answered, a read from celld's reply until the NATS reply is sent.
    responder.serveHeld(SandboxSubjects.FILES_READ, r -> {
      SandboxRef ref = SandboxAccess.require(r.actor(), r.body().sandbox());
      return budget.reply(ref, files.read(ref, r.body().path()), content -> SandboxBudget.chars(content.content()));
    });
    // A text write's content stays the UTF-8 bytes that came, on to celld (no string, no JSON escaping).
    responder.serveBulk(SandboxSubjects.FILES_WRITE, r -> {
      WriteFile write = r.body().value();
      byte[] content = r.body().text();
      SandboxRef ref = SandboxAccess.require(r.actor(), write.sandbox());
      return budget.whileHolding(ref, SandboxBudget.WRITE_COPIES * SandboxBudget.bytes(content), () ->
          files.write(ref, write.path(), content, write.expectedVersion(), write.createParents()));
    });
    responder.serve(SandboxSubjects.FILES_DELETE, r ->
        files.delete(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().recursive()));
    responder.serve(SandboxSubjects.FILES_MOVE, r ->
        files.move(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().from(), r.body().to()));
    responder.serve(SandboxSubjects.FILES_MKDIR, r ->
        files.mkdir(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().parents()));
    responder.serve(SandboxSubjects.FILES_SEARCH, r ->
        files.search(SandboxAccess.require(r.actor(), r.body().sandbox()), r.body().path(), r.body().query(), r.body().maxHits()));
    // Bytes travel as base64 (4/3 of them) besides the bytes themselves.
    responder.serveHeld(SandboxSubjects.FILES_READ_BYTES, r -> {
      SandboxRef ref = SandboxAccess.require(r.actor(), r.body().sandbox());
      return budget.reply(ref, files.readBytes(ref, r.body().path(), r.body().offset(), r.body().limit()),
          chunk -> chunk.data() == null ? 0 : 2L * chunk.data().length);
    });
    responder.serve(SandboxSubjects.FILES_WRITE_BYTES, r -> {
      SandboxRef ref = SandboxAccess.require(r.actor(), r.body().sandbox());
      return budget.whileHolding(ref, SandboxBudget.WRITE_COPIES * SandboxBudget.bytes(r.body().data()), () ->
          files.writeBytes(ref, r.body().path(), r.body().data(), r.body().expectedVersion(), r.body().createParents()));
    });
    responder.serve(SandboxSubjects.FILES_WRITE_PART, r -> {
      SandboxRef ref = SandboxAccess.require(r.actor(), r.body().sandbox());
      return budget.whileHolding(ref, SandboxBudget.WRITE_COPIES * SandboxBudget.bytes(r.body().data()), () ->
          files.writePart(ref, r.body()));
    });
    responder.serve(SandboxSubjects.FILES_GREP, r -> Offload.blocking(() -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return search.grep(r.body());
    }));
    responder.serve(SandboxSubjects.FILES_GLOB, r -> Offload.blocking(() -> {
      SandboxAccess.require(r.actor(), r.body().sandbox());
      return search.glob(r.body());
    }));
  }
}
