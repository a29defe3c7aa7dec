package dev.workcell.gateway.bench;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * Test-only endpoints that split the gateway's cost into layers for GatewayOverheadBenchTest: the
 * HTTP stack alone, HTTP with rate limit and JWT verification, and HTTP with the task read but no auth.
 * They exist in the test build only; the product has nothing like them.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class BenchFloorResource {

  static final String ANSWER = "{\"ok\":true}";

  private final NatsRequester nats;

  public BenchFloorResource(NatsRequester nats) {
    this.nats = nats;
  }

  /** HTTP in and out and nothing else: what any answer of this server costs the client. */
  @GET
  @Path("bench/floor")
  @Operation(hidden = true)
  public Uni<String> floor() {
    return Uni.createFrom().item(ANSWER);
  }

  /** The floor plus the rate limit and the JWT check (signature, claims, identity): no NATS. */
  @GET
  @Path("api/work/bench/authenticated")
  @Authenticated
  @Operation(hidden = true)
  public Uni<String> authenticated() {
    return Uni.createFrom().item(ANSWER);
  }

  /** The floor plus the same task read as the gateway's, for a fixed actor: no auth at all. */
  @GET
  @Path("bench/tasks/{owner}/{taskId}")
  @Operation(hidden = true)
  public Uni<TaskDetail> task(@PathParam("owner") String owner, @PathParam("taskId") String taskId) {
    return nats.request(TaskSubjects.GET, new TaskRef(taskId), new Actor(owner, Actor.Role.USER));
  }
}
