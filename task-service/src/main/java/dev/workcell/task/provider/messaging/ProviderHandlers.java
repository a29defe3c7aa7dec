package dev.workcell.task.provider.messaging;

import dev.workcell.contracts.provider.ProviderApi.ListProviders;
import dev.workcell.contracts.provider.ProviderApi.ProviderRef;
import dev.workcell.contracts.provider.ProviderApi.PutProvider;
import dev.workcell.contracts.provider.ProviderApi.ResolveProvider;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.provider.service.ProviderService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of admin-configured providers. */
@ApplicationScoped
public class ProviderHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, ProviderService providers) {
    responder.serve(ProviderSubjects.ADMIN_PUT, r -> providers.put(r.actor(), r.body()));
    responder.serve(ProviderSubjects.ADMIN_GET, r -> providers.get(r.actor(), r.body()));
    responder.serve(ProviderSubjects.ADMIN_LIST, r -> providers.list(r.actor()));
    responder.serve(ProviderSubjects.ADMIN_DELETE, r -> providers.delete(r.actor(), r.body()));
    responder.serve(ProviderSubjects.CATALOG, r -> providers.catalog(r.actor()));
    responder.serve(ProviderSubjects.RESOLVE, r -> providers.resolve(r.actor(), r.body()));
  }
}
