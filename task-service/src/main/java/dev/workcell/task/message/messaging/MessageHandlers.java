package dev.workcell.task.message.messaging;

import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.run.messaging.RunControlPublisher;
import dev.workcell.task.message.service.MessageService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of the conversation. */
@ApplicationScoped
public class MessageHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, RunControlPublisher control, MessageService messages) {
    // The runner takes the message at its next round; the push only spares it a poll.
    responder.serve(TaskSubjects.MESSAGE_POST, r -> messages.post(r.actor(), r.body())
        .invoke(posted -> control.push(posted.taskId(), posted.runId(), RunControlApi.MESSAGE, null)));
    responder.serve(TaskSubjects.MESSAGE_PAGE, r -> messages.page(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_PENDING, r -> messages.pending(r.actor(), r.body()));
  }
}
