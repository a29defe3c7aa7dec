package dev.workcell.gateway.openterminal.rest;

import static dev.workcell.gateway.openterminal.rest.TerminalApi.SESSION;
import static dev.workcell.gateway.openterminal.rest.TerminalApi.USER;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.DeleteFile;
import dev.workcell.contracts.sandbox.FileChanged;
import dev.workcell.contracts.sandbox.FileEntry;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.GlobFiles;
import dev.workcell.contracts.sandbox.GlobResult;
import dev.workcell.contracts.sandbox.MakeDirectory;
import dev.workcell.contracts.sandbox.MoveFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.StatFile;
import dev.workcell.contracts.sandbox.WriteBytes;
import dev.workcell.gateway.file.service.FilePart;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.openterminal.config.TerminalSettings;
import dev.workcell.gateway.openterminal.rest.TerminalRequests.ArchiveRequest;
import dev.workcell.gateway.openterminal.rest.TerminalRequests.MoveRequest;
import dev.workcell.gateway.openterminal.rest.TerminalRequests.PathRequest;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Created;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Deleted;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Moved;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Uploaded;
import dev.workcell.gateway.openterminal.service.ContentDisposition;
import dev.workcell.gateway.openterminal.service.HomePaths;
import dev.workcell.gateway.openterminal.service.MediaTypes;
import dev.workcell.gateway.openterminal.service.SearchPaths;
import dev.workcell.gateway.openterminal.service.TerminalCaller;
import dev.workcell.gateway.openterminal.service.TerminalSandbox;
import dev.workcell.gateway.openterminal.service.TerminalSandbox.FileStream;
import dev.workcell.gateway.openterminal.service.ZipStream;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestMulti;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/**
 * The endpoints OpenWebUI's file browser uses beyond the tools: raw bytes, upload, mkdir, delete,
 * move, zip archive (one @Path root with the other resources: JAX-RS picks the class by its longest
 * literal prefix first). Paths are relative to the home here (as upstream), not to the session directory.
 */
@Path(TerminalApi.BASE)
public class TerminalTransferResource {

  private final TerminalSandbox sandbox;
  private final TerminalSettings settings;

  public TerminalTransferResource(TerminalSandbox sandbox, TerminalSettings settings) {
    this.sandbox = sandbox;
    this.settings = settings;
  }

  @GET
  @Path("/files/view")
  public RestMulti<byte[]> view(@QueryParam("path") String path, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    return bytes(TerminalCaller.of(user, session), HomePaths.resolve(QueryValues.required("path", path), ""));
  }

  @GET
  @Path("/files/serve/{path: .+}")
  public RestMulti<byte[]> serve(@PathParam("path") String path, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    return bytes(TerminalCaller.of(user, session), HomePaths.resolve("/" + path, ""));
  }

  @POST
  @Path("/files/upload")
  @Consumes(MediaType.MULTIPART_FORM_DATA)
  @Produces(MediaType.APPLICATION_JSON)
  @Blocking
  public Uni<Uploaded> upload(@QueryParam("directory") String directory, @RestForm("file") FileUpload file,
      @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String dir = HomePaths.resolve(QueryValues.required("directory", directory), "");
    if (file == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "a multipart part named file is required");
    }
    if (file.size() > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, "An upload holds at most 2,000,000 bytes per file");
    }
    String name = file.fileName() == null ? "upload" : file.fileName().replace('\\', '/');
    name = name.substring(name.lastIndexOf('/') + 1);
    if (name.isEmpty() || name.equals(".") || name.equals("..")) {
      name = "upload";
    }
    String target = HomePaths.resolve(name, dir);
    byte[] data;
    try {
      data = Files.readAllBytes(file.uploadedFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sandbox.ask(SandboxSubjects.FILES_WRITE_BYTES, new WriteBytes(caller.sandbox(), target, data, null, true)).map(written -> new Uploaded(HomePaths.present(target), data.length));
  }

  /**
   * Not in upstream Open Terminal: a file of any size, text or not, in parts of at most 2,000,000
   * bytes under one upload id (restores from the mirror); the last part puts it in place at once.
   * {@code path} as the other endpoints' (relative to the home, or absolute beneath it).
   */
  @POST
  @Path("/files/upload/part")
  @Consumes(MediaType.APPLICATION_OCTET_STREAM)
  @Produces(MediaType.APPLICATION_JSON)
  public Uni<FileWritten> uploadPart(@QueryParam("path") String path, @QueryParam("upload") String upload,
      @QueryParam("offset") String offset, @QueryParam("last") String last, @QueryParam("mode") String mode, byte[] body,
      @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String target = HomePaths.resolve(QueryValues.required("path", path), "");
    if (target.isEmpty()) {
      throw new WorkcellException(ErrorCode.INVALID_PATH, "The home directory itself cannot be replaced");
    }
    FilePart part = FilePart.of(upload, offset, last, mode, body);
    return sandbox.ask(SandboxSubjects.FILES_WRITE_PART, part.to(caller.sandbox(), target))
        .map(written -> new FileWritten(HomePaths.present(target), written.version(), written.size()));
  }

  @POST
  @Path("/files/mkdir")
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  public Uni<Created> mkdir(PathRequest body, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String dir = HomePaths.resolve(QueryValues.required("path", Inputs.body(body).path()), "");
    if (dir.isEmpty()) {
      return Uni.createFrom().item(new Created(HomePaths.HOME)); // as makedirs(exist_ok=True) of the home
    }
    return sandbox.ask(SandboxSubjects.FILES_MKDIR, new MakeDirectory(caller.sandbox(), dir, true))
        .map(changed -> new Created(HomePaths.present(dir)));
  }

  @DELETE
  @Path("/files/delete")
  @Produces(MediaType.APPLICATION_JSON)
  public Uni<Deleted> delete(@QueryParam("path") String path, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String target = HomePaths.resolve(QueryValues.required("path", path), "");
    if (target.isEmpty()) {
      throw new WorkcellException(ErrorCode.INVALID_PATH, "The home directory itself cannot be deleted");
    }
    return sandbox.ask(SandboxSubjects.FILES_STAT, new StatFile(caller.sandbox(), target)).chain(entry ->
        sandbox.ask(SandboxSubjects.FILES_DELETE, new DeleteFile(caller.sandbox(), target, true))
            .map(changed -> new Deleted(HomePaths.present(target), "dir".equals(entry.type()) ? "directory" : "file")));
  }

  @POST
  @Path("/files/move")
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  public Uni<Moved> move(MoveRequest body, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    MoveRequest request = Inputs.body(body);
    String from = HomePaths.resolve(QueryValues.required("source", request.source()), "");
    String to = HomePaths.resolve(QueryValues.required("destination", request.destination()), "");
    if (from.isEmpty() || to.isEmpty()) {
      throw new WorkcellException(ErrorCode.INVALID_PATH, "The home directory itself cannot be moved or replaced");
    }
    // As upstream: a missing source is 404, a missing destination directory 400.
    return sandbox.ask(SandboxSubjects.FILES_STAT, new StatFile(caller.sandbox(), from))
        .onFailure().transform(failure -> TerminalFileResource.notFound(failure)
            ? new WorkcellException(ErrorCode.NOT_FOUND, "Source path not found") : failure)
        .chain(entry -> sandbox.ask(SandboxSubjects.FILES_MOVE, new MoveFile(caller.sandbox(), from, to))
            .onFailure().transform(failure -> TerminalFileResource.notFound(failure) || isNotADirectory(failure)
                ? new WorkcellException(ErrorCode.INVALID_REQUEST, "Destination parent directory not found") : failure))
        .map(changed -> new Moved(HomePaths.present(from), HomePaths.present(to)));
  }

  @POST
  @Path("/files/archive")
  @Consumes(MediaType.APPLICATION_JSON)
  public RestMulti<byte[]> archive(ArchiveRequest body, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    ArchiveRequest request = Inputs.body(body);
    if (request.paths() == null || request.paths().isEmpty()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "No paths provided");
    }
    if (request.paths().size() > settings.archiveMaxFiles()) {
      throw new WorkcellException(ErrorCode.PAYLOAD_TOO_LARGE, "too many paths");
    }
    List<String> targets = request.paths().stream().map(p -> HomePaths.resolve(QueryValues.required("paths", p), "")).toList();
    ZipStream zip = new ZipStream(settings.archiveMaxBytes(), settings.archiveMaxFiles());
    String name = targets.size() == 1 ? lastName(targets.get(0)) : "download";
    String disposition = ContentDisposition.attachment(name + ".zip");
    // Every member is listed and counted against the caps first, so a 413 comes before the 200.
    Uni<List<Member>> members = Multi.createFrom().iterable(targets)
        .onItem().transformToUniAndConcatenate(target -> members(caller, target))
        .onItem().transformToIterable(list -> list)
        .invoke(member -> zip.reserve(member.size()))
        .collect().asList();
    return RestMulti.fromUniResponse(members, list -> zipped(caller, list, zip),
        list -> Map.of(HttpHeaders.CONTENT_TYPE, List.of("application/zip"),
            "Content-Disposition", List.of(disposition)));
  }

  /** The members one after another, each chunk through the zip encoder as it arrives, then the central directory. */
  private Multi<byte[]> zipped(TerminalCaller caller, List<Member> members, ZipStream zip) {
    Multi<byte[]> entries = Multi.createFrom().iterable(members).onItem().transformToMultiAndConcatenate(member ->
        sandbox.stream(caller, member.path(), settings.archiveMaxBytes()).onItem().transformToMulti(file ->
            Multi.createBy().concatenating().streams(
                Multi.createFrom().item(() -> zip.begin(member.name())),
                file.chunks().map(zip::write),
                Multi.createFrom().item(zip::end))));
    return Multi.createBy().concatenating().streams(entries, Multi.createFrom().item(zip::finish))
        .select().where(bytes -> bytes.length > 0);
  }

  private record Member(String path, String name, long size) {}

  /** A file is itself; a directory is every file beneath it, named below the directory's own name. */
  private Uni<List<Member>> members(TerminalCaller caller, String target) {
    // The home is always a directory (and celld stats only entries below it).
    Uni<FileEntry> stat = target.isEmpty() ? Uni.createFrom().item(new FileEntry("user", "dir", 0, 0, 0, null))
        : sandbox.ask(SandboxSubjects.FILES_STAT, new StatFile(caller.sandbox(), target));
    return stat.chain(entry -> {
      if (!"dir".equals(entry.type())) {
        return Uni.createFrom().item(List.of(new Member(target, lastName(target), entry.size())));
      }
      GlobFiles all = new GlobFiles(caller.sandbox(), target, "**", null, "file", 1000);
      return sandbox.ask(SandboxSubjects.FILES_GLOB, all).map(result -> {
        if (result.truncated()) {
          throw new WorkcellException(ErrorCode.PAYLOAD_TOO_LARGE, "An archive holds at most 1000 files");
        }
        String prefix = lastName(target);
        List<Member> members = new ArrayList<>();
        for (GlobResult.GlobMatch match : result.matches() == null ? List.<GlobResult.GlobMatch>of() : result.matches()) {
          String path = SearchPaths.homeRelative(target, match.path());
          members.add(new Member(path, prefix + "/" + SearchPaths.belowSearched(target, path), match.size()));
        }
        return members;
      });
    });
  }

  /**
   * Streamed at any size: the gateway holds about one chunk of a download, not the file; a failure
   * before the first byte is a problem.
   */
  private RestMulti<byte[]> bytes(TerminalCaller caller, String path) {
    Uni<FileStream> file = path.isEmpty() ? Uni.createFrom().failure(new WorkcellException(ErrorCode.NOT_FOUND, "File not found"))
        : sandbox.stream(caller, path, Long.MAX_VALUE).onFailure().transform(UpstreamStatus::fileExpected);
    return RestMulti.fromUniResponse(file, FileStream::chunks,
        stream -> Map.of(HttpHeaders.CONTENT_TYPE, List.of(MediaTypes.of(path)), "X-Content-Type-Options", List.of("nosniff"),
            HttpHeaders.CONTENT_LENGTH, List.of(Long.toString(stream.size()))));
  }

  /** As upstream's basename: the home is "user". */
  private static String lastName(String relative) {
    String shown = HomePaths.present(relative);
    return shown.substring(shown.lastIndexOf('/') + 1);
  }

  private static boolean isNotADirectory(Throwable failure) {
    return failure instanceof WorkcellException known && known.code() == ErrorCode.NOT_A_DIRECTORY;
  }
}
