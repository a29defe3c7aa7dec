package dev.workcell.agent.provider.service;

import dev.workcell.agent.config.AgentSettings;
import dev.workcell.agent.config.ProviderSettings;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.provider.ProviderApi.ResolveProvider;
import dev.workcell.contracts.provider.ProviderApi.ResolvedProvider;
import dev.workcell.messaging.NatsRequester;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Reads an admin-configured provider, key included, from task-service. Asked before every request
 * and never cached, so a changed key or a deleted provider applies to the next round. Failures keep
 * their codes ({@code provider_not_found}, {@code service_unavailable}, …): the run fails, it never
 * falls back.
 */
@ApplicationScoped
public class AdminProviders {

  private static final Actor RUNNER = Actor.service(ServiceName.AGENT_RUNNER);

  private final NatsRequester requester;
  private final Duration timeout;

  public AdminProviders(NatsRequester requester, ProviderSettings settings, AgentSettings agent) {
    this.requester = requester;
    this.timeout = agent.taskServiceTimeout();
  }

  public ResolvedProvider resolve(String id) {
    return requester.request(ProviderSubjects.RESOLVE, new ResolveProvider(id), RUNNER, timeout)
        .await().atMost(timeout.plusSeconds(1));
  }
}
