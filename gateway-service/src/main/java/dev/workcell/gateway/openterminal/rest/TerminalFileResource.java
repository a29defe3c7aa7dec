package dev.workcell.gateway.openterminal.rest;

import static dev.workcell.gateway.openterminal.rest.TerminalApi.SESSION;
import static dev.workcell.gateway.openterminal.rest.TerminalApi.USER;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.FileEntry;
import dev.workcell.contracts.sandbox.FileList;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.StatFile;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.gateway.budget.service.GatewayBudget;
import dev.workcell.gateway.file.service.BulkBodyReader;
import dev.workcell.gateway.file.service.BulkBodyReader.BulkBody;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.openterminal.rest.TerminalRequests.PathRequest;
import dev.workcell.gateway.openterminal.rest.TerminalRequests.ReplaceRequest;
import dev.workcell.gateway.openterminal.rest.TerminalRequests.ReplacementChunk;
import dev.workcell.gateway.openterminal.rest.TerminalRequests.WriteRequest;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Cwd;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.CwdSet;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Display;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Entry;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Listing;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Root;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.TextFile;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Written;
import dev.workcell.gateway.openterminal.config.TerminalSettings;
import dev.workcell.gateway.openterminal.service.DocumentText;
import dev.workcell.gateway.openterminal.service.HomePaths;
import dev.workcell.gateway.openterminal.service.LineWindow;
import dev.workcell.gateway.openterminal.service.MediaTypes;
import dev.workcell.gateway.openterminal.service.SessionCwds;
import dev.workcell.gateway.openterminal.service.TerminalCaller;
import dev.workcell.gateway.openterminal.service.TerminalSandbox;
import dev.workcell.gateway.openterminal.service.TextLines;
import dev.workcell.messaging.budget.Utf8;
import dev.workcell.messaging.BulkMessage;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** The file tools of the Open Terminal API (list, read, display, write, replace) and the session directory. */
@Path(TerminalApi.BASE)
@Produces(MediaType.APPLICATION_JSON)
public class TerminalFileResource {

  private final TerminalSandbox sandbox;
  private final SessionCwds cwds;
  private final DocumentText documents;
  private final long viewMaxBytes;
  private final GatewayBudget budget;
  private final BulkBodyReader bodies;

  public TerminalFileResource(TerminalSandbox sandbox, SessionCwds cwds, DocumentText documents, TerminalSettings settings,
      GatewayBudget budget, BulkBodyReader bodies) {
    this.sandbox = sandbox;
    this.cwds = cwds;
    this.documents = documents;
    this.viewMaxBytes = settings.viewMaxBytes();
    this.budget = budget;
    this.bodies = bodies;
  }

  @GET
  @Path("/files/list")
  public Uni<Listing> list(@QueryParam("directory") String directory, @HeaderParam(USER) String user,
      @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String dir = HomePaths.resolve(QueryValues.text(directory), cwds.get(caller));
    return sandbox.ask(SandboxSubjects.FILES_LIST, new ListFiles(caller.sandbox(), dir))
        .map(list -> new Listing(HomePaths.present(dir), true,
            list.entries() == null ? List.of() : list.entries().stream().map(TerminalFileResource::entry).toList()))
        .onFailure().transform(failure -> UpstreamStatus.directoryExpected(failure, "Directory not found"));
  }

  @GET
  @Path("/files/read")
  public Uni<Response> read(@QueryParam("path") String path, @QueryParam("start_line") String startLine,
      @QueryParam("end_line") String endLine, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session,
      RoutingContext context) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    Integer start = QueryValues.integer("start_line", startLine, 1, Integer.MAX_VALUE, null);
    Integer end = QueryValues.integer("end_line", endLine, 1, Integer.MAX_VALUE, null);
    String file = HomePaths.resolve(QueryValues.required("path", path), cwds.get(caller));
    String shown = HomePaths.present(file);
    if (file.isEmpty()) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "File not found");
    }
    if (MediaTypes.rawImage(file)) {
      return sandbox.readAll(caller, file, viewMaxBytes)
          .map(bytes -> Response.ok(bytes, MediaTypes.of(file)).header("X-Content-Type-Options", "nosniff").build())
          .onFailure().transform(UpstreamStatus::fileExpected);
    }
    String kind = MediaTypes.document(file);
    if (kind != null) {
      return documents.extract(caller, file, kind).map(text -> lines(shown, LineWindow.of(text.content(), start, end)));
    }
    // Chunk by chunk: a line range of a file of any size keeps only its own lines in memory.
    // The lines kept (at most the file's size, as text and as the answer) are counted until the answer is sent.
    return sandbox.stream(caller, file, Long.MAX_VALUE)
        .invoke(stream -> hold(context, caller, stream, start != null || end != null))
        .chain(stream -> stream.chunks().collect().in(() -> new LineWindow(start, end), LineWindow::accept))
        .map(window -> lines(shown, window.finish()))
        .onFailure().transform(failure -> unsupported(UpstreamStatus.fileExpected(failure), file));
  }

  @GET
  @Path("/files/display")
  public Uni<Display> display(@QueryParam("path") String path, @HeaderParam(USER) String user,
      @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String file = HomePaths.resolve(QueryValues.required("path", path), cwds.get(caller));
    if (file.isEmpty()) {
      return Uni.createFrom().item(new Display(HomePaths.HOME, false)); // the home is a directory, not a file to show
    }
    return sandbox.ask(SandboxSubjects.FILES_STAT, new StatFile(caller.sandbox(), file))
        .map(entry -> new Display(HomePaths.present(file), "file".equals(entry.type())))
        .onFailure(WorkcellException.class).recoverWithUni(failure -> notFound(failure)
            ? Uni.createFrom().item(new Display(HomePaths.present(file), false))
            : Uni.createFrom().failure(failure));
  }

  @POST
  @Path("/files/write")
  @Consumes(MediaType.APPLICATION_JSON)
  public Uni<Written> write(byte[] body, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    BulkBody<WriteRequest> read = Inputs.body(bodies.read(body, WriteRequest.class));
    String file = HomePaths.resolve(QueryValues.required("path", read.value().path()), cwds.get(caller));
    if (read.text() == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "content is required");
    }
    long size = read.text().length;
    if (size > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, null);
    }
    return sandbox.ask(SandboxSubjects.FILES_WRITE, new BulkMessage<>(new WriteFile(caller.sandbox(), file, null, null, true), read.text()))
        .map(written -> new Written(HomePaths.present(file), size));
  }

  @POST
  @Path("/files/replace")
  @Consumes(MediaType.APPLICATION_JSON)
  public Uni<Written> replace(ReplaceRequest body, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session,
      RoutingContext context) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    ReplaceRequest request = Inputs.body(body);
    String file = HomePaths.resolve(QueryValues.required("path", request.path()), cwds.get(caller));
    if (request.replacements() == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "replacements is required");
    }
    if (file.isEmpty()) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "File not found");
    }
    return sandbox.ask(SandboxSubjects.FILES_READ, new ReadFile(caller.sandbox(), file))
        .onFailure().transform(UpstreamStatus::fileExpected)
        // The text, its edited copy and the write's message: counted until the answer is sent.
        .invoke(current -> budget.holdUntilSent(context, GatewayBudget.terminalUser(caller.userId()),
            3L * (current.content() == null ? 0 : current.content().length())))
        .chain(current -> {
      // Read as upstream reads text (universal newlines), so CRLF files are written back with LF.
      String content = TextLines.normalizeNewlines(current.content());
      for (ReplacementChunk chunk : request.replacements()) {
        if (chunk == null) {
          throw new WorkcellException(ErrorCode.INVALID_REQUEST, "a replacement is null");
        }
        if ((chunk.startLine() != null && chunk.startLine() < 1) || (chunk.endLine() != null && chunk.endLine() < 1)) {
          throw new WorkcellException(ErrorCode.INVALID_REQUEST, "start_line and end_line are 1 or more");
        }
        content = TextLines.replace(content, chunk.target(), chunk.replacement(), chunk.startLine(), chunk.endLine(),
            Boolean.TRUE.equals(chunk.allowMultiple()));
      }
      long size = utf8Size(content);
      // Compare-and-swap: a write in between fails with conflict rather than being overwritten.
      return sandbox.ask(SandboxSubjects.FILES_WRITE, new WriteFile(caller.sandbox(), file, content, current.version(), false)).map(written -> new Written(HomePaths.present(file), size));
    });
  }

  @GET
  @Path("/files/cwd")
  public Cwd cwd(@HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    return new Cwd(HomePaths.present(cwds.get(caller)), HomePaths.HOME, new Root(HomePaths.HOME, "Home"));
  }

  @POST
  @Path("/files/cwd")
  @Consumes(MediaType.APPLICATION_JSON)
  public Uni<CwdSet> setCwd(PathRequest body, @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String dir = HomePaths.resolve(QueryValues.required("path", Inputs.body(body).path()), "");
    if (dir.isEmpty()) { // the home always exists; OpenWebUI posts it whenever the person clicks Home
      cwds.set(caller, dir);
      return Uni.createFrom().item(new CwdSet(HomePaths.HOME));
    }
    return sandbox.ask(SandboxSubjects.FILES_STAT, new StatFile(caller.sandbox(), dir)).map(entry -> {
      if (!"dir".equals(entry.type())) {
        throw new WorkcellException(ErrorCode.NOT_FOUND, "Directory not found");
      }
      cwds.set(caller, dir);
      return new CwdSet(HomePaths.present(dir));
    }).onFailure().transform(failure -> UpstreamStatus.directoryExpected(failure, "Directory not found"));
  }

  static Entry entry(FileEntry entry) {
    String type = "dir".equals(entry.type()) ? "directory" : "file";
    return new Entry(entry.name(), type, entry.size(), entry.mtimeMs() / 1000.0, (entry.mode() & 0200) != 0);
  }

  /**
   * A whole text is held twice (its lines and the answer); one larger than the gateway's budget would
   * not fit at all, so it is 413 (a line range of it streams through). A range keeps at most its lines.
   */
  private void hold(RoutingContext context, TerminalCaller caller, TerminalSandbox.FileStream stream, boolean ranged) {
    try {
      long bytes = GatewayBudget.ANSWER_COPIES * stream.size();
      if (!ranged && bytes > budget.budget().limit()) {
        throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, "The file has " + stream.size()
            + " bytes, more than the gateway holds at once; read it with start_line and end_line");
      }
      budget.holdUntilSent(context, GatewayBudget.terminalUser(caller.userId()),
          ranged ? Math.min(bytes, budget.budget().perUser()) : bytes);
    } catch (RuntimeException refused) {
      stream.hold().close(); // its chunks are never taken
      throw refused;
    }
  }

  private static Response lines(String shown, LineWindow.Lines lines) {
    return Response.ok(new TextFile(shown, lines.total(), lines.content()), MediaType.APPLICATION_JSON).build();
  }

  private static Throwable unsupported(Throwable failure, String file) {
    if (failure instanceof WorkcellException known && known.code() == ErrorCode.NOT_UTF8) {
      return new WorkcellException(ErrorCode.NOT_UTF8, "Unsupported binary file type: " + MediaTypes.of(file));
    }
    return failure;
  }

  static boolean notFound(Throwable failure) {
    return failure instanceof WorkcellException known && known.code() == ErrorCode.NOT_FOUND;
  }

  /** Counted, not encoded: two getBytes() of a 2 MB text were two 2 MB copies per write. */
  private static long utf8Size(String content) {
    long size = content.length() > Limits.FILE_MAX_BYTES ? Long.MAX_VALUE : Utf8.length(content);
    if (size > Limits.FILE_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, null);
    }
    return size;
  }
}
