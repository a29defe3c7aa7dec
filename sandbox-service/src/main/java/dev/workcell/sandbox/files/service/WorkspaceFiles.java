package dev.workcell.sandbox.files.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.FileBytes;
import dev.workcell.contracts.sandbox.FileChanged;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.FileEntry;
import dev.workcell.contracts.sandbox.FileList;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SearchResult;
import dev.workcell.contracts.sandbox.WritePart;
import dev.workcell.sandbox.celld.client.CelldReplies;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.celld.client.ToolReplies;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Workspace file operations, each one celld request in the sandbox's running celld. No thread waits
 * for celld: the reply completes the Uni (see {@link SandboxLifecycle#session}).
 */
@ApplicationScoped
public class WorkspaceFiles {

  private static final Duration FILE_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration SEARCH_TIMEOUT = Duration.ofSeconds(60);
  private static final int QUERY_MAX_CHARS = 1_000;
  private static final int VERSION_MAX_CHARS = 128;
  private static final Pattern UPLOAD_ID = Pattern.compile("[0-9a-f]{16,64}");

  private final SandboxLifecycle lifecycle;
  private final int maxOutputChars;

  public WorkspaceFiles(SandboxLifecycle lifecycle, SandboxSettings settings) {
    this.lifecycle = lifecycle;
    this.maxOutputChars = settings.maxOutputChars();
  }

  public Uni<FileList> list(SandboxRef ref, String path) {
    String dir = WorkspacePath.directory(path);
    return call(ref, new CelldRequest.ListDir(dir), FILE_TIMEOUT).map(result -> CelldReplies.fileList(dir, result));
  }

  public Uni<FileEntry> stat(SandboxRef ref, String path) {
    String entry = WorkspacePath.entry(path);
    return call(ref, new CelldRequest.Stat(entry), FILE_TIMEOUT).map(CelldReplies::fileEntry);
  }

  public Uni<FileContent> read(SandboxRef ref, String path) {
    String entry = WorkspacePath.entry(path);
    return call(ref, new CelldRequest.Read(entry), FILE_TIMEOUT).map(result -> CelldReplies.fileContent(entry, result));
  }

  /**
   * Atomic replace with text given as its UTF-8 bytes, as they came over NATS: they go to celld raw
   * (a bulk request frame), never through a Java string. celld refuses bytes that are not UTF-8
   * ({@code not_utf8}); the gateway already refused them at its door.
   */
  public Uni<FileWritten> write(SandboxRef ref, String path, byte[] content, String expectedVersion, boolean createParents) {
    String entry = WorkspacePath.entry(path);
    if (content == null) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "content is required");
    }
    if (content.length > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, "content exceeds " + Limits.FILE_MAX_BYTES + " UTF-8 bytes");
    }
    if (expectedVersion != null && (expectedVersion.isBlank() || expectedVersion.length() > VERSION_MAX_CHARS)) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "expectedVersion is not a version");
    }
    // Only a celld without bulk requests gets the text JSON-escaped, which can inflate it up to six-fold
    // past the 8 MiB frame; base64 of 2 MB never does. The oversized frame is refused before it is sent.
    return call(ref, new CelldRequest.WriteText(entry, content, createParents, expectedVersion), FILE_TIMEOUT)
        .onFailure(e -> e instanceof WorkcellException w && w.code() == ErrorCode.PAYLOAD_TOO_LARGE)
        .recoverWithUni(() -> call(ref, new CelldRequest.WriteBytes(entry, content, createParents, expectedVersion), FILE_TIMEOUT))
        .map(result -> CelldReplies.written(entry, result));
  }

  /** A chunk of any file, text or not: {@code offset} ≥ 0 (null: 0), {@code limit} 1..2,000,000 (null: all of that). */
  public Uni<FileBytes> readBytes(SandboxRef ref, String path, Long offset, Integer limit) {
    String entry = WorkspacePath.entry(path);
    long from = offset == null ? 0 : offset;
    int max = limit == null ? Limits.FILE_MAX_BYTES : limit;
    if (from < 0) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "offset must be ≥ 0");
    }
    if (max < 1 || max > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "limit must be 1.." + Limits.FILE_MAX_BYTES);
    }
    return call(ref, new CelldRequest.ReadBytes(entry, from, max), FILE_TIMEOUT)
        .map(result -> ToolReplies.fileBytes(entry, result));
  }

  /** Atomic replace with raw bytes (uploads): at most 2,000,000 of them. */
  public Uni<FileWritten> writeBytes(SandboxRef ref, String path, byte[] data, String expectedVersion, boolean createParents) {
    String entry = WorkspacePath.entry(path);
    if (data == null) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "data is required");
    }
    if (data.length > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, "data exceeds " + Limits.FILE_MAX_BYTES + " bytes");
    }
    if (expectedVersion != null && (expectedVersion.isBlank() || expectedVersion.length() > VERSION_MAX_CHARS)) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "expectedVersion is not a version");
    }
    // Raw in a bulk request frame (base64 straight into the JSON for a celld without them).
    return call(ref, new CelldRequest.WriteBytes(entry, data, createParents, expectedVersion), FILE_TIMEOUT)
        .map(result -> CelldReplies.written(entry, result));
  }

  /**
   * One part of a file written in parts ({@link WritePart}): at most 2,000,000 bytes, so a file of
   * any size passes through in bounded memory; celld keeps the parts in a hidden file until the last.
   */
  public Uni<FileWritten> writePart(SandboxRef ref, WritePart part) {
    String entry = WorkspacePath.entry(part.path());
    if (part.upload() == null || !UPLOAD_ID.matcher(part.upload()).matches()) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "upload must be 16..64 lowercase hex digits");
    }
    if (part.offset() < 0) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "offset must be ≥ 0");
    }
    if (part.data() == null) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "data is required");
    }
    if (part.data().length > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, "a part holds at most " + Limits.FILE_MAX_BYTES + " bytes");
    }
    if (part.mode() != null && (part.mode() < 0 || part.mode() > 0777)) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "mode must be permission bits 0..0777");
    }
    CelldRequest request = new CelldRequest.WritePart(entry, part.upload(), part.offset(), part.data(), part.last(),
        part.createParents(), part.mode());
    return call(ref, request, FILE_TIMEOUT).map(result -> CelldReplies.partWritten(entry, part.last(), result));
  }

  public Uni<FileChanged> delete(SandboxRef ref, String path, boolean recursive) {
    String entry = WorkspacePath.entry(path);
    return call(ref, new CelldRequest.Delete(entry, recursive), FILE_TIMEOUT)
        .map(result -> new FileChanged(entry, CelldReplies.flag(result, "deleted")));
  }

  public Uni<FileChanged> move(SandboxRef ref, String from, String to) {
    String source = WorkspacePath.entry(from);
    String target = WorkspacePath.entry(to);
    return call(ref, new CelldRequest.Move(source, target), FILE_TIMEOUT)
        .map(result -> new FileChanged(target, CelldReplies.flag(result, "moved")));
  }

  public Uni<FileChanged> mkdir(SandboxRef ref, String path, boolean parents) {
    String entry = WorkspacePath.entry(path);
    return call(ref, new CelldRequest.Mkdir(entry, parents), FILE_TIMEOUT)
        .map(result -> new FileChanged(entry, CelldReplies.flag(result, "created")));
  }

  public Uni<SearchResult> search(SandboxRef ref, String path, String query, Integer maxHits) {
    String dir = WorkspacePath.directory(path);
    if (query == null || query.isEmpty() || query.length() > QUERY_MAX_CHARS || query.indexOf('\0') >= 0) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "query must be 1.." + QUERY_MAX_CHARS + " characters without NUL");
    }
    int hits = maxHits == null ? Limits.SEARCH_MAX_HITS : maxHits;
    if (hits < 1 || hits > Limits.SEARCH_MAX_HITS) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "maxHits must be 1.." + Limits.SEARCH_MAX_HITS);
    }
    return call(ref, new CelldRequest.Search(dir, query, hits), SEARCH_TIMEOUT)
        .map(result -> SearchOutputCap.search(CelldReplies.search(result), SearchOutputCap.limit(ref, maxOutputChars)));
  }

  private Uni<JsonNode> call(SandboxRef ref, CelldRequest request, Duration timeout) {
    return lifecycle.session(ref).onItem().transformToUni(session -> session.call(request, timeout));
  }
}
