package dev.workcell.task.account.messaging;

import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.account.EnsureAccount;
import dev.workcell.contracts.account.GetAccount;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.account.service.AccountService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of accounts. */
@ApplicationScoped
public class AccountHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, AccountService accounts) {
    responder.serve(Subjects.ACCOUNT_ENSURE,
        request -> accounts.ensure(request.actor(), request.body().username(), request.body().role()));
    responder.serve(Subjects.ACCOUNT_GET,
        request -> accounts.get(request.actor(), request.body().id()));
  }
}
