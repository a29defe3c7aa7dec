package dev.workcell.task.support;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.HostFolder;
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
 * unreachable Docker engine would), and checks host folders as the guard would for an admin: a folder
 * under {@link #DENIED_FOLDER} is refused, any other resolves to itself under {@link #REAL_ROOT}.
 */
@ApplicationScoped
public class SandboxFixture {

  public static final String REAL_ROOT = "/real";
  public static final String DENIED_FOLDER = "/denied";

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
    responder.serve(SandboxSubjects.HOST_FOLDER_CHECK, request -> {
      if (!request.actor().isAdmin()) {
        return Uni.createFrom().failure(new WorkcellException(ErrorCode.FORBIDDEN, "only an admin may give a task a host folder"));
      }
      String folder = request.body().folder();
      return folder.startsWith(DENIED_FOLDER)
          ? Uni.createFrom().failure(new WorkcellException(ErrorCode.HOST_FOLDER_DENIED, null))
          : Uni.createFrom().item(new HostFolder(REAL_ROOT + folder));
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
