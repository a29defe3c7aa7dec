package dev.workcell.task.ticket.messaging;

import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TicketApi.ConsumeTicket;
import dev.workcell.contracts.task.TicketApi.IssueTicket;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.ticket.service.TicketService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of one-time WebSocket tickets. */
@ApplicationScoped
public class TicketHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, TicketService tickets) {
    responder.serve(TaskSubjects.TICKET_ISSUE, r -> tickets.issue(r.actor(), r.body()));
    responder.serve(TaskSubjects.TICKET_CONSUME, r -> tickets.consume(r.actor(), r.body()));
  }
}
