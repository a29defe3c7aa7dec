package dev.workcell.task.task.messaging;

import dev.workcell.contracts.task.RunnerApi.RuntimeSpecRequest;
import dev.workcell.contracts.task.TaskApi.CreateTask;
import dev.workcell.contracts.task.TaskApi.ListTasks;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskApi.UpdateTask;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskSubjects.KnownTasks;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.task.service.RuntimeSpecs;
import dev.workcell.task.task.service.TaskDeletion;
import dev.workcell.task.task.service.TaskSandboxRefs;
import dev.workcell.task.task.service.TaskService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of tasks. */
@ApplicationScoped
public class TaskHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, TaskService tasks, TaskDeletion deletion,
      RuntimeSpecs specs, TaskSandboxRefs sandboxes) {
    responder.serve(TaskSubjects.CREATE, r -> tasks.create(r.actor(), r.body()));
    responder.serve(TaskSubjects.LIST, r -> tasks.list(r.actor()));
    responder.serve(TaskSubjects.GET, r -> tasks.get(r.actor(), r.body()));
    responder.serve(TaskSubjects.SANDBOX, r -> sandboxes.of(r.actor(), r.body()));
    responder.serve(TaskSubjects.UPDATE, r -> tasks.update(r.actor(), r.body()));
    responder.serve(TaskSubjects.DELETE, r -> deletion.delete(r.actor(), r.body()));
    responder.serve(TaskSubjects.SEEN, r -> tasks.markSeen(r.actor(), r.body()));
    responder.serve(TaskSubjects.KNOWN_TASKS, r -> tasks.known(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNTIME_SPEC, r -> specs.spec(r.actor(), r.body()));
    responder.serve(TaskSubjects.ADMIN_TASKS, r -> tasks.listAll(r.actor()));
  }
}
