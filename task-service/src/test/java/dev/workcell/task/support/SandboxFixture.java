package dev.workcell.task.support;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.messaging.NatsResponder;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for sandbox-service on the module's private test NATS (no real sandbox-service there):
 * answers the contract's DELETE and STOP subjects, failing for the task ids a test names (as an
 * unreachable Docker engine would).
 */
@ApplicationScoped
public class SandboxFixture {

  private final Set<String> failing = ConcurrentHashMap.newKeySet();
  private final List<SandboxRef> deleted = new CopyOnWriteArrayList<>();
  private final List<SandboxRef> stopped = new CopyOnWriteArrayList<>();

  void register(@Observes StartupEvent event, NatsResponder responder) {
    responder.serve(SandboxSubjects.DELETE, request -> {
      if (failing.contains(request.body().taskId())) {
        return Uni.createFrom().failure(new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "docker engine unreachable"));
      }
      deleted.add(request.body());
      return Uni.createFrom().item(new SandboxState(request.body().taskId(), "absent", null, null, false));
    });
    responder.serve(SandboxSubjects.STOP, request -> {
      if (failing.contains(request.body().taskId())) {
        return Uni.createFrom().failure(new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "docker engine unreachable"));
      }
      stopped.add(request.body());
      return Uni.createFrom().item(new SandboxState(request.body().taskId(), "stopped", null, null, false));
    });
  }

  public void failFor(String taskId) {
    failing.add(taskId);
  }

  public void succeedFor(String taskId) {
    failing.remove(taskId);
  }

  public boolean deleted(String taskId) {
    return deleted.stream().anyMatch(ref -> ref.taskId().equals(taskId));
  }

  public boolean stopped(String taskId) {
    return stopped.stream().anyMatch(ref -> ref.taskId().equals(taskId));
  }
}
