package dev.workcell.contracts.provider;

import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.subject.NatsUser;
import dev.workcell.contracts.subject.Subject;

import dev.workcell.contracts.provider.ProviderApi.ListProviders;
import dev.workcell.contracts.provider.ProviderApi.ProviderCatalog;
import dev.workcell.contracts.provider.ProviderApi.ProviderDeleted;
import dev.workcell.contracts.provider.ProviderApi.ProviderList;
import dev.workcell.contracts.provider.ProviderApi.ProviderRef;
import dev.workcell.contracts.provider.ProviderApi.PutProvider;
import dev.workcell.contracts.provider.ProviderApi.ResolveProvider;
import dev.workcell.contracts.provider.ProviderApi.ResolvedProvider;

/**
 * Subjects of admin-configured model providers. task-service stores them (keys encrypted at rest);
 * agent-runner alone may read a decrypted key, through {@link #RESOLVE}, which the stack's NATS
 * permissions (generated from the callers named here) refuse to every other user as well.
 */
public final class ProviderSubjects {

  /** {@link PutProvider} → {@link ProviderView}; admin. Creates or replaces; audited without the key. */
  public static final Subject<PutProvider, ProviderView> ADMIN_PUT =
      Subject.of("workcell.task.admin.providers.put", PutProvider.class, ProviderView.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ProviderRef} → {@link ProviderView}; admin. */
  public static final Subject<ProviderRef, ProviderView> ADMIN_GET =
      Subject.of("workcell.task.admin.providers.get", ProviderRef.class, ProviderView.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ListProviders} → {@link ProviderList}; admin. */
  public static final Subject<ListProviders, ProviderList> ADMIN_LIST =
      Subject.of("workcell.task.admin.providers.list", ListProviders.class, ProviderList.class, ServiceName.TASK, NatsUser.GATEWAY);
  /** {@link ProviderRef} → {@link ProviderDeleted}; admin. Audited. */
  public static final Subject<ProviderRef, ProviderDeleted> ADMIN_DELETE =
      Subject.of("workcell.task.admin.providers.delete", ProviderRef.class, ProviderDeleted.class, ServiceName.TASK, NatsUser.GATEWAY);

  /** {@link ListProviders} → {@link ProviderCatalog}; any account with Work access. No URLs, no keys. */
  public static final Subject<ListProviders, ProviderCatalog> CATALOG =
      Subject.of("workcell.task.providers.list", ListProviders.class, ProviderCatalog.class, ServiceName.TASK, NatsUser.GATEWAY);

  /**
   * {@link ResolveProvider} → {@link ResolvedProvider} with the decrypted key; the agent-runner
   * service only (checked in the handler and in NATS permissions). Missing → {@code provider_not_found}.
   */
  public static final Subject<ResolveProvider, ResolvedProvider> RESOLVE =
      Subject.of("workcell.task.runner.providers.resolve", ResolveProvider.class, ResolvedProvider.class, ServiceName.TASK, NatsUser.AGENT_RUNNER);

  /**
   * {@link ListProviders} → {@link ProviderCatalog}; served by agent-runner: the providers it reads
   * from its environment ({@code WORK_OLLAMA_URL}, …), without URLs or keys.
   */
  public static final Subject<ListProviders, ProviderCatalog> ENVIRONMENT =
      Subject.of("workcell.agent-runner.providers.environment", ListProviders.class, ProviderCatalog.class, ServiceName.AGENT_RUNNER, NatsUser.GATEWAY);

  private ProviderSubjects() {}
}
