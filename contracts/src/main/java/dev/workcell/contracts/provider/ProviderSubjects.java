package dev.workcell.contracts.provider;

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
 * permissions deny to every other service user as well.
 */
public final class ProviderSubjects {

  /** {@link PutProvider} → {@link ProviderView}; admin. Creates or replaces; audited without the key. */
  public static final String ADMIN_PUT = "workcell.task.admin.providers.put";
  /** {@link ProviderRef} → {@link ProviderView}; admin. */
  public static final String ADMIN_GET = "workcell.task.admin.providers.get";
  /** {@link ListProviders} → {@link ProviderList}; admin. */
  public static final String ADMIN_LIST = "workcell.task.admin.providers.list";
  /** {@link ProviderRef} → {@link ProviderDeleted}; admin. Audited. */
  public static final String ADMIN_DELETE = "workcell.task.admin.providers.delete";

  /** {@link ListProviders} → {@link ProviderCatalog}; any account with Work access. No URLs, no keys. */
  public static final String CATALOG = "workcell.task.providers.list";

  /**
   * {@link ResolveProvider} → {@link ResolvedProvider} with the decrypted key; the agent-runner
   * service only (checked in the handler and in NATS permissions). Missing → {@code provider_not_found}.
   */
  public static final String RESOLVE = "workcell.task.runner.providers.resolve";

  /**
   * {@link ListProviders} → {@link ProviderCatalog}; served by agent-runner: the providers it reads
   * from its environment ({@code WORK_OLLAMA_URL}, …), without URLs or keys.
   */
  public static final String ENVIRONMENT = "workcell.agent-runner.providers.environment";

  private ProviderSubjects() {}
}
