package dev.workcell.agent.run.messaging;

import dev.workcell.agent.config.AgentSettings;
import dev.workcell.contracts.run.RunBudget;
import dev.workcell.messaging.NatsResponder;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Answers the budgets runs are driven with, so capabilities report what is configured, not a constant. */
@ApplicationScoped
public class RunBudgetHandlers {

  private final NatsResponder responder;
  private final AgentSettings settings;

  public RunBudgetHandlers(NatsResponder responder, AgentSettings settings) {
    this.responder = responder;
    this.settings = settings;
  }

  void register(@Observes StartupEvent event) {
    RunBudget budget = new RunBudget(settings.maxRounds(), settings.toolCallBudget(), settings.runLeaseWait().toMillis());
    responder.serve(RunBudget.SUBJECT, request -> Uni.createFrom().item(budget));
  }
}
