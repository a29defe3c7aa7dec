package dev.workcell.task.task.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.conversation.repository.OwnedTaskFacts;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * A task's sandbox, for its owner: the account and ownership checks of a task read and nothing else.
 * Asked before every Work file, command and Git request, so it is one statement ({@link OwnedTaskFacts}).
 */
@ApplicationScoped
public class TaskSandboxRefs {

  private final OwnedTaskFacts ownedTasks;

  public TaskSandboxRefs(OwnedTaskFacts ownedTasks) {
    this.ownedTasks = ownedTasks;
  }

  public Uni<SandboxRef> of(Actor actor, TaskRef request) {
    UUID taskId = Ids.parse(request.taskId()).orElseThrow(Failures::taskNotFound);
    UUID accountId = WorkAccess.accountId(actor);
    return ownedTasks.read(accountId, taskId).map(facts -> {
      WorkAccess.requireWorkUser(actor, accountId, facts.role(), facts.status(), facts.mode());
      if (!facts.owned()) {
        throw Failures.taskNotFound();
      }
      return new SandboxRef(taskId.toString(), accountId.toString());
    });
  }
}
