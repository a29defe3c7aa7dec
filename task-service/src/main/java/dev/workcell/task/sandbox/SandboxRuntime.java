package dev.workcell.task.sandbox;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.CheckHostFolder;
import dev.workcell.contracts.sandbox.SandboxSubjects.HostFolder;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.support.ReactiveContext;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.UUID;

/**
 * task-service's only view of the runtime: it asks sandbox-service (the one holder of Docker and
 * Kubernetes credentials) to stop or remove a task's sandbox, and to check a host folder. task-service
 * authorised the caller already, so it asks as itself (a host folder: as the caller, for the admin rule).
 */
@ApplicationScoped
public class SandboxRuntime {

  private static final Actor SELF = Actor.service(ServiceName.TASK);
  /** A check resolves one path on the local file system: quick, or sandbox-service is away. */
  private static final Duration HOST_FOLDER_DEADLINE = Duration.ofSeconds(5);

  private final NatsRequester requester;
  private final TaskSettings settings;

  public SandboxRuntime(NatsRequester requester, TaskSettings settings) {
    this.requester = requester;
    this.settings = settings;
  }

  /** Removes container and volume; succeeds only once both are gone (absent counts as gone). */
  public Uni<Void> delete(UUID taskId, UUID ownerId) {
    return call(SandboxSubjects.DELETE, taskId, ownerId, settings.sandboxDeleteTimeout());
  }

  /** Stops the container; the volume stays. */
  public Uni<Void> stop(UUID taskId, UUID ownerId) {
    return call(SandboxSubjects.STOP, taskId, ownerId, settings.sandboxStopTimeout());
  }

  /**
   * The real path of a host folder a new task asks for (decision 0023), or sandbox-service's refusal.
   * Asked as {@code caller}, whose role task-service has just read: only an admin may have one.
   */
  public Uni<String> checkHostFolder(Actor caller, String folder) {
    return ReactiveContext.backOnContext(requester.request(SandboxSubjects.HOST_FOLDER_CHECK, new CheckHostFolder(folder), caller,
        HOST_FOLDER_DEADLINE).map(HostFolder::realPath));
  }

  private Uni<Void> call(Subject<SandboxRef, SandboxState> subject, UUID taskId, UUID ownerId, Duration deadline) {
    Uni<Void> reply = requester
        .request(subject, new SandboxRef(taskId.toString(), ownerId.toString()), SELF, deadline)
        .replaceWithVoid()
        // Only success matters; a sandbox that never existed is already gone.
        .onFailure(e -> e instanceof WorkcellException w && w.code() == ErrorCode.NOT_FOUND).recoverWithNull();
    return ReactiveContext.backOnContext(reply);
  }
}
