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
import dev.workcell.task.task.service.TaskService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of tasks. */
@ApplicationScoped
public class TaskHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, TaskService tasks, TaskDeletion deletion,
      RuntimeSpecs specs) {
    responder.serve(TaskSubjects.CREATE, CreateTask.class, r -> tasks.create(r.actor(), r.body()));
    responder.serve(TaskSubjects.LIST, ListTasks.class, r -> tasks.list(r.actor()));
    responder.serve(TaskSubjects.GET, TaskRef.class, r -> tasks.get(r.actor(), r.body()));
    responder.serve(TaskSubjects.SANDBOX, TaskRef.class, r -> tasks.sandboxOf(r.actor(), r.body()));
    responder.serve(TaskSubjects.UPDATE, UpdateTask.class, r -> tasks.update(r.actor(), r.body()));
    responder.serve(TaskSubjects.DELETE, TaskRef.class, r -> deletion.delete(r.actor(), r.body()));
    responder.serve(TaskSubjects.SEEN, TaskRef.class, r -> tasks.markSeen(r.actor(), r.body()));
    responder.serve(TaskSubjects.KNOWN_TASKS, KnownTasks.class, r -> tasks.known(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNTIME_SPEC, RuntimeSpecRequest.class, r -> specs.spec(r.actor(), r.body()));
    responder.serve(TaskSubjects.ADMIN_TASKS, ListTasks.class, r -> tasks.listAll(r.actor()));
  }
}
