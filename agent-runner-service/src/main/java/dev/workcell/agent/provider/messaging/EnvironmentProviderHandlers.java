package dev.workcell.agent.provider.messaging;

import dev.workcell.agent.provider.service.ProviderRegistry;
import dev.workcell.agent.config.ProviderSettings;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.contracts.provider.ProviderApi.ListProviders;
import dev.workcell.contracts.provider.ProviderApi.ProviderCatalog;
import dev.workcell.messaging.NatsResponder;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Lists the environment providers (ids and kinds) for the gateway's capabilities and its id-conflict check. */
@ApplicationScoped
public class EnvironmentProviderHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, ProviderSettings settings, ProviderRegistry registry) {
    responder.serve(ProviderSubjects.ENVIRONMENT,
        r -> Uni.createFrom().item(new ProviderCatalog(registry.environmentSummaries())));
  }
}
