package dev.workcell.gateway.openterminal.rest;

import static dev.workcell.gateway.openterminal.rest.TerminalApi.SESSION;
import static dev.workcell.gateway.openterminal.rest.TerminalApi.USER;

import dev.workcell.contracts.sandbox.ListPorts;
import dev.workcell.contracts.sandbox.PortList;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.gateway.openterminal.service.TerminalCaller;
import dev.workcell.gateway.openterminal.service.TerminalSandbox;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /ports} as Open Terminal answers it ({@code {"ports": [{"port", "pid", "process"}]}}, not in
 * its openapi.json): the TCP ports listening inside this user's home sandbox, read by celld from the
 * sandbox's own network namespace (decision 0020), so another user's ports never appear.
 */
@Path(TerminalApi.BASE + "/ports")
@Produces(MediaType.APPLICATION_JSON)
public class TerminalPortResource {

  private final TerminalSandbox sandbox;

  public TerminalPortResource(TerminalSandbox sandbox) {
    this.sandbox = sandbox;
  }

  @GET
  public Uni<PortList> list(@HeaderParam(USER) String user, @HeaderParam(SESSION) String session) {
    TerminalCaller caller = TerminalCaller.of(user, session);
    return sandbox.ask(SandboxSubjects.PORTS_LIST, new ListPorts(caller.sandbox()))
        .map(list -> new PortList(list.ports() == null ? List.of() : list.ports()));
  }
}
