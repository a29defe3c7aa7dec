package dev.workcell.gateway.openterminal.rest;

import static dev.workcell.gateway.openterminal.rest.TerminalApi.SESSION;
import static dev.workcell.gateway.openterminal.rest.TerminalApi.USER;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.KillProcess;
import dev.workcell.contracts.sandbox.ListProcesses;
import dev.workcell.contracts.sandbox.PollProcess;
import dev.workcell.contracts.sandbox.ProcessInput;
import dev.workcell.contracts.sandbox.ProcessList;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.gateway.budget.service.GatewayBudget;
import dev.workcell.gateway.problem.Inputs;
import dev.workcell.gateway.openterminal.rest.TerminalRequests.ExecRequest;
import dev.workcell.gateway.openterminal.rest.TerminalRequests.InputRequest;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Process;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.ProcessSummary;
import dev.workcell.gateway.openterminal.rest.TerminalResponses.Status;
import dev.workcell.gateway.openterminal.service.EscapeDecoder;
import dev.workcell.gateway.openterminal.service.HomePaths;
import dev.workcell.gateway.openterminal.service.SessionCwds;
import dev.workcell.gateway.openterminal.service.TerminalCaller;
import dev.workcell.gateway.openterminal.service.TerminalSandbox;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * /execute as Open Terminal does it: every command is a background process in the user's sandbox,
 * {@code wait} only bounds how long this request waits for it. Processes live in the user's own
 * celld, so another user's process id is simply not found.
 */
@Path(TerminalApi.BASE + "/execute")
@Produces(MediaType.APPLICATION_JSON)
public class TerminalProcessResource {

  private static final int MAX_INPUT_BYTES = 65_536;
  private static final int MAX_ENV = 100;

  private final TerminalSandbox sandbox;
  private final SessionCwds cwds;
  private final GatewayBudget budget;

  public TerminalProcessResource(TerminalSandbox sandbox, SessionCwds cwds, GatewayBudget budget) {
    this.sandbox = sandbox;
    this.cwds = cwds;
    this.budget = budget;
  }

  @GET
  public Uni<List<ProcessSummary>> list(@HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    return sandbox.ask(SandboxSubjects.PROCESS_LIST, new ListProcesses(caller.sandbox()))
        // Upstream forgets a process when it is killed; a killed one stays pollable here until it expires.
        .map(list -> (list.processes() == null ? List.<ProcessView>of() : list.processes()).stream()
            .filter(p -> !"killed".equals(p.status()))
            .map(p -> new ProcessSummary(p.id(), p.command(), p.status(), p.exitCode(), null)).toList());
  }

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  public Uni<Process> run(ExecRequest body, @QueryParam("wait") String wait, @QueryParam("tail") String tail,
      @HeaderParam(USER) String user, @HeaderParam(SESSION) String session, RoutingContext context) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    ExecRequest request = Inputs.body(body);
    if (request.command() == null || request.command().isBlank()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "command is required");
    }
    if (request.command().length() > Limits.COMMAND_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "command exceeds " + Limits.COMMAND_MAX_CHARS + " characters");
    }
    long waitMs = QueryValues.waitMs(wait);
    Integer lastEntries = QueryValues.integer("tail", tail, 1, Integer.MAX_VALUE, null);
    String sessionCwd = cwds.get(caller);
    String cwd = request.cwd() == null || request.cwd().isBlank() ? sessionCwd : HomePaths.resolve(request.cwd(), sessionCwd);
    // Upstream runs every command on a terminal of its own (PtyRunner): interactive programs prompt
    // and answer send_process_input, ^C interrupts, output entries are of type "output".
    StartProcess start = new StartProcess(caller.sandbox(), request.command(), cwd.isEmpty() ? null : cwd, env(request.env()),
        waitMs, lastEntries, true);
    return sandbox.ask(SandboxSubjects.PROCESS_START, start, waitMs)
        .invoke(view -> holdOutput(context, caller, view)).map(TerminalProcessResource::process);
  }

  @GET
  @Path("/{processId}/status")
  public Uni<Process> status(@PathParam("processId") String processId, @QueryParam("wait") String wait,
      @QueryParam("offset") String offset, @QueryParam("tail") String tail, @HeaderParam(USER) String user,
      @HeaderParam(SESSION) String session, RoutingContext context) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String id = processId(processId);
    long waitMs = QueryValues.waitMs(wait);
    int from = QueryValues.integer("offset", offset, 0, Integer.MAX_VALUE, 0);
    Integer lastEntries = QueryValues.integer("tail", tail, 1, Integer.MAX_VALUE, null);
    return sandbox.ask(SandboxSubjects.PROCESS_STATUS, new PollProcess(caller.sandbox(), id, from, lastEntries, waitMs), waitMs).invoke(view -> holdOutput(context, caller, view)).map(TerminalProcessResource::process);
  }

  /** The output in the reply and in the answer written from it: counted until the answer is sent, or 429. */
  private void holdOutput(RoutingContext context, TerminalCaller caller, ProcessView view) {
    long chars = 0;
    for (ProcessView.OutputEntry entry : view.output() == null ? List.<ProcessView.OutputEntry>of() : view.output()) {
      chars += entry.data() == null ? 0 : entry.data().length();
    }
    budget.holdUntilSent(context, GatewayBudget.terminalUser(caller.userId()), GatewayBudget.ANSWER_COPIES * chars);
  }

  @POST
  @Path("/{processId}/input")
  @Consumes(MediaType.APPLICATION_JSON)
  public Uni<Status> input(@PathParam("processId") String processId, InputRequest body, @HeaderParam(USER) String user,
      @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String id = processId(processId);
    InputRequest request = Inputs.body(body);
    if (request.input() == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "input is required");
    }
    String text = EscapeDecoder.decode(request.input());
    if (text.getBytes(StandardCharsets.UTF_8).length > MAX_INPUT_BYTES) {
      throw new WorkcellException(ErrorCode.PAYLOAD_TOO_LARGE, "input exceeds 65,536 bytes");
    }
    return sandbox.ask(SandboxSubjects.PROCESS_INPUT, new ProcessInput(caller.sandbox(), id, text))
        .map(ignored -> new Status("ok"));
  }

  @DELETE
  @Path("/{processId}")
  public Uni<Status> kill(@PathParam("processId") String processId, @QueryParam("force") String force,
      @HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    String id = processId(processId);
    boolean now = QueryValues.bool("force", force, false);
    return sandbox.ask(SandboxSubjects.PROCESS_KILL, new KillProcess(caller.sandbox(), id, now))
        .map(ignored -> new Status("killed"));
  }

  static Process process(ProcessView view) {
    return new Process(view.id(), view.command(), view.status(), view.exitCode(),
        view.output() == null ? List.of() : view.output(), view.truncated(), view.nextOffset(), null);
  }

  /** Process ids are opaque tokens; anything else cannot name a process, so it is not found. */
  private static String processId(String id) {
    if (id == null || id.isEmpty() || id.length() > 100 || !id.matches("[A-Za-z0-9_.-]+")) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "Process not found");
    }
    return id;
  }

  private static Map<String, String> env(Map<String, String> env) {
    if (env == null || env.isEmpty()) {
      return null;
    }
    if (env.size() > MAX_ENV) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "at most " + MAX_ENV + " environment variables");
    }
    env.forEach((name, value) -> {
      if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]*") || name.length() > 200) {
        throw new WorkcellException(ErrorCode.INVALID_REQUEST, "environment variable names are [A-Za-z_][A-Za-z0-9_]*");
      }
      if (value == null || value.indexOf('\0') >= 0 || value.length() > 32_768) {
        throw new WorkcellException(ErrorCode.INVALID_REQUEST, "environment values are text without NUL, at most 32,768 characters");
      }
    });
    return env;
  }
}
