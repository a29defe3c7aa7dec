package dev.workcell.gateway.provider.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.provider.ProviderApi.ListProviders;
import dev.workcell.contracts.provider.ProviderApi.ProviderCatalog;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.contracts.provider.ProviderSummary;
import dev.workcell.messaging.NatsRequester;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * The providers agent-runner reads from its environment (ids and kinds only). Best effort: while no
 * runner answers the list is empty — the runner's precedence (an environment provider owns its id)
 * keeps routing unambiguous regardless.
 */
@ApplicationScoped
public class EnvironmentProviders {

  private static final Actor GATEWAY = Actor.service(ServiceName.GATEWAY);
  private static final Duration DEADLINE = Duration.ofSeconds(2);

  private final NatsRequester nats;

  public EnvironmentProviders(NatsRequester nats) {
    this.nats = nats;
  }

  public Uni<List<ProviderSummary>> list() {
    return nats.request(ProviderSubjects.ENVIRONMENT, new ListProviders(), GATEWAY, DEADLINE)
        .map(catalog -> catalog.providers() == null ? List.<ProviderSummary>of() : catalog.providers())
        .onFailure().recoverWithItem(e -> {
          Log.debugf("environment providers unknown: %s", e.getMessage());
          return List.of();
        });
  }
}
