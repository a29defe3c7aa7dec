package dev.workcell.sandbox.ports.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.PortList;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.celld.client.ToolReplies;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * The TCP ports listening inside a home sandbox, read by celld from the sandbox's own network
 * namespace (decision 0020), so no other sandbox's port can appear. A home that is not running has
 * none, as upstream answers for an unprovisioned user; asking never starts one.
 */
@ApplicationScoped
public class ListeningPorts {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final SandboxLifecycle lifecycle;

  public ListeningPorts(SandboxLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  public Uni<PortList> list(SandboxRef ref) {
    if (!ref.isHome()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "ports are listed for home sandboxes only");
    }
    return Uni.createFrom().deferred(() -> lifecycle.useIfActive(ref)
        .map(session -> session.call(new CelldRequest.Ports(), TIMEOUT).map(ToolReplies::ports))
        .orElseGet(() -> Uni.createFrom().item(new PortList(List.of()))));
  }
}
