package dev.workcell.task.provider.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.provider.ProviderApi.ProviderCatalog;
import dev.workcell.contracts.provider.ProviderApi.ProviderDeleted;
import dev.workcell.contracts.provider.ProviderApi.ProviderList;
import dev.workcell.contracts.provider.ProviderApi.ProviderRef;
import dev.workcell.contracts.provider.ProviderApi.PutProvider;
import dev.workcell.contracts.provider.ProviderApi.ResolveProvider;
import dev.workcell.contracts.provider.ProviderApi.ResolvedProvider;
import dev.workcell.contracts.provider.ProviderRules;
import dev.workcell.contracts.provider.ProviderView;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.audit.service.AuditLog;
import dev.workcell.task.provider.ProviderEntity;
import dev.workcell.task.provider.ProviderMapper;
import dev.workcell.task.provider.repository.ProviderRepository;
import dev.workcell.task.support.DbErrors;
import dev.workcell.task.support.Failures;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Admin-configured model providers. Keys are sealed before they reach the database and opened only
 * for the agent-runner service; audit entries record that a key was set, never the key.
 */
@ApplicationScoped
public class ProviderService {

  private static final String RUNNER = Actor.service(ServiceName.AGENT_RUNNER).accountId();
  private static final String PRIMARY_KEY = "providers_pkey";

  private final WorkAccess access;
  private final ProviderRepository providers;
  private final ProviderKeyCipher cipher;
  private final AuditLog audit;

  public ProviderService(WorkAccess access, ProviderRepository providers, ProviderKeyCipher cipher, AuditLog audit) {
    this.access = access;
    this.providers = providers;
    this.cipher = cipher;
    this.audit = audit;
  }

  public Uni<ProviderList> list(Actor actor) {
    return Panache.withSession(() -> access.requireAdmin(actor)
        .chain(providers::allById)
        .map(all -> new ProviderList(all.stream().map(ProviderMapper::toView).toList())));
  }

  public Uni<ProviderView> get(Actor actor, ProviderRef ref) {
    String id = ProviderRules.id(ref.id());
    return Panache.withSession(() -> access.requireAdmin(actor)
        .chain(() -> providers.findById(id))
        .onItem().ifNull().failWith(() -> Failures.error(ErrorCode.NOT_FOUND, "no such provider"))
        .map(ProviderMapper::toView));
  }

  /** Every Work user may see what they can route a task to: ids, kinds, models; no URLs, no keys. */
  public Uni<ProviderCatalog> catalog(Actor actor) {
    return Panache.withSession(() -> access.requireWorkUser(actor)
        .chain(providers::allById)
        .map(all -> new ProviderCatalog(all.stream().map(ProviderMapper::toSummary).toList())));
  }

  public Uni<ProviderView> put(Actor actor, PutProvider request) {
    String id = ProviderRules.id(request.id());
    String kind = ProviderRules.kind(request.kind()).wire();
    String baseUrl = ProviderRules.baseUrl(request.baseUrl());
    String apiKey = ProviderRules.apiKey(request.apiKey());
    List<String> models = ProviderRules.models(request.models());
    OffsetDateTime now = OffsetDateTime.now();
    return Panache.withTransaction(() -> access.requireAdmin(actor)
            .chain(() -> providers.findById(id))
            .chain(existing -> {
              boolean isNew = existing == null;
              ProviderEntity provider = isNew ? created(id, now) : existing;
              boolean routeChanged = !isNew && (!provider.kind.equals(kind) || !provider.baseUrl.equals(baseUrl));
              if (apiKey == null && routeChanged && provider.hasApiKey()) {
                // A kept key must never follow a provider to another host or wire format unasked.
                throw Failures.invalid("changing kind or baseUrl needs the apiKey again (\"\" for none)");
              }
              applyKey(provider, apiKey);
              provider.kind = kind;
              provider.baseUrl = baseUrl;
              provider.models = ProviderMapper.modelsJson(models);
              provider.updatedAt = now;
              Uni<ProviderEntity> saved = isNew ? providers.persistAndFlush(provider) : providers.flush().replaceWith(provider);
              return saved.call(p -> audit.record(actor, isNew ? "provider.create" : "provider.update", null,
                  detail(p, apiKey != null)));
            })
            .map(ProviderMapper::toView))
        .onFailure(e -> DbErrors.uniqueViolation(e, PRIMARY_KEY))
        .transform(e -> Failures.error(ErrorCode.CONFLICT, "provider " + id + " was created concurrently; retry"));
  }

  public Uni<ProviderDeleted> delete(Actor actor, ProviderRef ref) {
    String id = ProviderRules.id(ref.id());
    return Panache.withTransaction(() -> access.requireAdmin(actor)
        .chain(() -> providers.findById(id))
        .onItem().ifNull().failWith(() -> Failures.error(ErrorCode.NOT_FOUND, "no such provider"))
        .call(providers::delete)
        .call(p -> audit.record(actor, "provider.delete", null, Map.of("providerId", p.id, "kind", p.kind)))
        .map(p -> new ProviderDeleted(p.id)));
  }

  /** The provider with its decrypted key, for the agent-runner service only. */
  public Uni<ResolvedProvider> resolve(Actor actor, ResolveProvider request) {
    if (actor.role() != Actor.Role.SERVICE || !RUNNER.equals(actor.accountId())) {
      return Failures.fail(ErrorCode.FORBIDDEN, "only agent-runner may resolve provider keys");
    }
    String id = ProviderRules.id(request.id());
    return Panache.withSession(() -> providers.findById(id))
        .onItem().ifNull().failWith(() -> Failures.error(ErrorCode.PROVIDER_NOT_FOUND, "no provider with id " + id + " is configured"))
        .map(p -> new ResolvedProvider(p.id, ProviderKind.fromWire(p.kind), p.baseUrl,
            p.hasApiKey() ? cipher.open(p.id, p.apiKeyCiphertext, p.apiKeyNonce) : null,
            ProviderMapper.models(p), p.updatedAt.toInstant()));
  }

  private void applyKey(ProviderEntity provider, String apiKey) {
    if (apiKey == null) {
      return;
    }
    if (apiKey.isEmpty()) {
      provider.apiKeyCiphertext = null;
      provider.apiKeyNonce = null;
      return;
    }
    ProviderKeyCipher.Sealed sealed = cipher.seal(provider.id, apiKey);
    provider.apiKeyCiphertext = sealed.ciphertext();
    provider.apiKeyNonce = sealed.nonce();
  }

  private static ProviderEntity created(String id, OffsetDateTime now) {
    ProviderEntity provider = new ProviderEntity();
    provider.id = id;
    provider.createdAt = now;
    return provider;
  }

  private static Map<String, Object> detail(ProviderEntity p, boolean keyWritten) {
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("providerId", p.id);
    detail.put("kind", p.kind);
    detail.put("baseUrl", p.baseUrl);
    detail.put("hasApiKey", p.hasApiKey());
    detail.put("apiKeyChanged", keyWritten);
    detail.put("models", ProviderMapper.models(p).size());
    return detail;
  }
}
