package dev.workcell.task.message.messaging;

import dev.workcell.contracts.task.RunnerApi.AppendMessage;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.TaskApi.PageMessages;
import dev.workcell.contracts.task.TaskApi.PostMessage;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.message.service.MessageService;
import dev.workcell.task.message.service.ModelContextBuilder;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of the conversation. */
@ApplicationScoped
public class MessageHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, MessageService messages,
      ModelContextBuilder context) {
    responder.serve(TaskSubjects.MESSAGE_POST, PostMessage.class, r -> messages.post(r.actor(), r.body()));
    responder.serve(TaskSubjects.MESSAGE_PAGE, PageMessages.class, r -> messages.page(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_APPEND, AppendMessage.class, r -> messages.append(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_PENDING, RunRef.class, r -> messages.pending(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_CONTEXT, RunRef.class, r -> context.context(r.actor(), r.body()));
  }
}
