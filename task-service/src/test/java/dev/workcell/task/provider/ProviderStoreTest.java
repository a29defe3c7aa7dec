package dev.workcell.task.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.provider.ProviderApi.ListProviders;
import dev.workcell.contracts.provider.ProviderApi.ProviderDeleted;
import dev.workcell.contracts.provider.ProviderApi.ProviderRef;
import dev.workcell.contracts.provider.ProviderApi.PutProvider;
import dev.workcell.contracts.provider.ProviderApi.ResolveProvider;
import dev.workcell.contracts.provider.ProviderApi.ResolvedProvider;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.contracts.provider.ProviderSummary;
import dev.workcell.contracts.provider.ProviderView;
import dev.workcell.contracts.task.AuditEntryView;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.ListAudit;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.contracts.task.WorkAdminApi.AccessChanged;
import dev.workcell.task.provider.service.ProviderKeyCipher;
import dev.workcell.task.support.AdminWorkTest;
import dev.workcell.task.support.Sql;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Admin-configured providers over task-service's real subjects, against the real PostgreSQL. */
@QuarkusTest
class ProviderStoreTest extends AdminWorkTest {

  @Inject
  Sql sql;

  @Test
  void theKeyIsEncryptedAtRestAndOnlyTheRunnerGetsItBack() throws Exception {
    String id = "openai-" + UUID.randomUUID();
    String key = "sk-live-" + UUID.randomUUID();

    ProviderView saved = put(admin, id, "openai", "https://api.example.test/v1", key, List.of("gpt-x"));

    assertThat(saved.hasApiKey()).isTrue();
    assertThat(saved.toString()).doesNotContain(key);
    // Nothing in the row, read with SQL, holds the plaintext (nor its bytes in the bytea columns).
    String row = sql.list("select p::text from providers p where id = ?1", String.class, id).getFirst();
    assertThat(row).doesNotContain(key).contains("https://api.example.test/v1");
    byte[] ciphertext = sql.list("select api_key_ciphertext from providers where id = ?1", byte[].class, id).getFirst();
    assertThat(new String(ciphertext, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain(key);
    assertThat(ciphertext.length).isEqualTo(key.length() + 16);

    ResolvedProvider resolved = work.call(ProviderSubjects.RESOLVE, new ResolveProvider(id), WorkClient.RUNNER);
    assertThat(resolved.apiKey()).isEqualTo(key);
    assertThat(resolved.kind()).isEqualTo(ProviderKind.OPENAI);
    assertThat(resolved.models()).containsExactly("gpt-x");
    assertThat(resolved.toString()).doesNotContain(key);

    // Anyone else is refused, whatever role the header claims.
    for (Actor other : List.of(WorkClient.GATEWAY, Actor.service(ServiceName.SANDBOX), admin, new Actor("service:agent-runner", Actor.Role.ADMIN))) {
      assertThat(work.failure(ProviderSubjects.RESOLVE, new ResolveProvider(id), other)).as(other.toString()).isEqualTo(ErrorCode.FORBIDDEN);
    }
  }

  @Test
  void anotherKeyFileCannotOpenAStoredKey() throws Exception {
    String id = "anthropic-" + UUID.randomUUID();
    put(admin, id, "anthropic", "https://anthropic.example.test", "sk-ant-" + UUID.randomUUID(), null);
    byte[] ciphertext = sql.list("select api_key_ciphertext from providers where id = ?1", byte[].class, id).getFirst();
    byte[] nonce = sql.list("select api_key_nonce from providers where id = ?1", byte[].class, id).getFirst();

    Path other = Files.createTempFile("provider-key", null);
    Files.writeString(other, "another-provider-key-0123456789abcdefghijklmnop");
    ProviderKeyCipher wrong = new ProviderKeyCipher(Optional.of(other.toString()));
    ProviderKeyCipher right = new ProviderKeyCipher(Optional.of("src/test/resources/test-provider-key"));

    assertThat(catching(() -> wrong.open(id, ciphertext, nonce))).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
    // The id is bound in: the right key does not open the ciphertext for another provider's row.
    assertThat(catching(() -> right.open(id + "x", ciphertext, nonce))).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
    assertThat(right.open(id, ciphertext, nonce)).startsWith("sk-ant-");
    // A key file too short to be a secret is refused, as is a missing one.
    Files.writeString(other, "short");
    assertThat(new ProviderKeyCipher(Optional.of(other.toString())).available()).isFalse();
    assertThat(new ProviderKeyCipher(Optional.of(other + ".missing")).available()).isFalse();
  }

  @Test
  void onlyAdminsManageProvidersAndUsersSeeNoUrlsOrKeys() {
    String id = "ollama-" + UUID.randomUUID();
    put(admin, id, "ollama", "http://127.0.0.1:11434", null, List.of("qwen3:8b", "gpt-oss:120b-cloud"));
    setMode("users");
    Actor user = work.account(Actor.Role.USER);
    PutProvider request = new PutProvider(id, ProviderKind.OLLAMA, "http://evil.test", null, null);

    assertThat(work.failure(ProviderSubjects.ADMIN_PUT, request, user)).isEqualTo(ErrorCode.FORBIDDEN);
    assertThat(work.failure(ProviderSubjects.ADMIN_GET, new ProviderRef(id), user)).isEqualTo(ErrorCode.FORBIDDEN);
    assertThat(work.failure(ProviderSubjects.ADMIN_LIST, new ListProviders(), user)).isEqualTo(ErrorCode.FORBIDDEN);
    assertThat(work.failure(ProviderSubjects.ADMIN_DELETE, new ProviderRef(id), user)).isEqualTo(ErrorCode.FORBIDDEN);
    assertThat(work.failure(ProviderSubjects.ADMIN_PUT, request, WorkClient.GATEWAY)).isEqualTo(ErrorCode.FORBIDDEN);
    assertThat(work.call(ProviderSubjects.ADMIN_GET, new ProviderRef(id), admin).baseUrl())
        .isEqualTo("http://127.0.0.1:11434");

    ProviderSummary seen = work.call(ProviderSubjects.CATALOG, new ListProviders(), user).providers().stream()
        .filter(p -> p.id().equals(id)).findFirst().orElseThrow();
    assertThat(seen.kind()).isEqualTo(ProviderKind.OLLAMA);
    assertThat(seen.remote()).isFalse();
    assertThat(seen.models()).extracting(m -> m.id() + "=" + m.remote()).containsExactly("qwen3:8b=false", "gpt-oss:120b-cloud=true");
    setMode("admins");
    assertThat(work.failure(ProviderSubjects.CATALOG, new ListProviders(), user)).isEqualTo(ErrorCode.WORK_ACCESS_DENIED);
  }

  @Test
  void putAndDeleteAreAuditedWithoutTheKey() {
    String id = "gemini-" + UUID.randomUUID();
    String key = "AIza-" + UUID.randomUUID();
    put(admin, id, "gemini", "https://gemini.example.test", key, null);
    put(admin, id, "gemini", "https://gemini.example.test", null, List.of("gemini-pro"));
    assertThat(work.call(ProviderSubjects.ADMIN_LIST, new ListProviders(), admin).providers())
        .filteredOn(p -> p.id().equals(id)).singleElement()
        .satisfies(p -> assertThat(p.hasApiKey()).as("the key is kept when apiKey is absent").isTrue());

    ProviderDeleted deleted = work.call(ProviderSubjects.ADMIN_DELETE, new ProviderRef(id), admin);

    assertThat(deleted.id()).isEqualTo(id);
    List<AuditEntryView> entries = work.call(TaskSubjects.ADMIN_AUDIT, new ListAudit(null, null, 500), admin)
        .entries().stream().filter(e -> e.detail() != null && e.detail().contains("\"" + id + "\"")).toList();
    assertThat(entries).extracting(AuditEntryView::action).containsExactly("provider.delete", "provider.update", "provider.create");
    assertThat(entries).allSatisfy(e -> {
      assertThat(e.actorId()).isEqualTo(admin.accountId());
      assertThat(e.detail()).doesNotContain(key);
    });
    assertThat(entries.get(2).detail()).contains("\"apiKeyChanged\":true");
    assertThat(entries.get(1).detail()).contains("\"apiKeyChanged\":false", "\"hasApiKey\":true");
    assertThat(sql.list("select count(*) from providers where id = ?1", Long.class, id).getFirst()).isZero();
    assertThat(work.failure(ProviderSubjects.RESOLVE, new ResolveProvider(id), WorkClient.RUNNER)).isEqualTo(ErrorCode.PROVIDER_NOT_FOUND);
    assertThat(work.failure(ProviderSubjects.ADMIN_DELETE, new ProviderRef(id), admin)).isEqualTo(ErrorCode.NOT_FOUND);
  }

  @Test
  void aKeptKeyNeverFollowsTheProviderToAnotherHost() {
    String id = "moving-" + UUID.randomUUID();
    put(admin, id, "openai", "https://one.example.test/v1", "sk-" + UUID.randomUUID(), null);

    assertThat(work.failure(ProviderSubjects.ADMIN_PUT, new PutProvider(id, ProviderKind.OPENAI, "https://two.example.test/v1", null, null), admin))
        .isEqualTo(ErrorCode.INVALID_REQUEST);
    ProviderView cleared = put(admin, id, "openai", "https://two.example.test/v1", "", null);
    assertThat(cleared.hasApiKey()).isFalse();
    assertThat(sql.list("select count(*) from providers where id = ?1 and api_key_ciphertext is null and api_key_nonce is null",
        Long.class, id).getFirst()).isEqualTo(1L);
  }

  @Test
  void invalidDefinitionsAreRefusedWithTheirCodes() {
    record Case(PutProvider request, ErrorCode code) {}
    String ok = "https://api.example.test/v1";
    List<Case> cases = List.of(
        new Case(new PutProvider("has space", ProviderKind.OPENAI, ok, null, null), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("x".repeat(201), ProviderKind.OPENAI, ok, null, null), ErrorCode.PROVIDER_ID_TOO_LONG),
        new Case(new PutProvider("p", ProviderKind.OLLAMA_CLOUD, ok, null, null), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("p", null, ok, null, null), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("p", ProviderKind.OPENAI, "ftp://api.example.test", null, null), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("p", ProviderKind.OPENAI, "https://user:pw@api.example.test", null, null), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("p", ProviderKind.OPENAI, "https://api.example.test/#frag", null, null), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("p", ProviderKind.OPENAI, "/v1", null, null), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("p", ProviderKind.OPENAI, ok, "k".repeat(4097), null), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("p", ProviderKind.OPENAI, ok, "line\r\nInjected: yes", null), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("p", ProviderKind.OPENAI, ok, null, java.util.Collections.nCopies(201, "m")), ErrorCode.INVALID_REQUEST),
        new Case(new PutProvider("p", ProviderKind.OPENAI, ok, null, List.of("m".repeat(501))), ErrorCode.MODEL_ID_TOO_LONG));
    for (Case c : cases) {
      assertThat(work.failure(ProviderSubjects.ADMIN_PUT, c.request(), admin)).as(c.request().toString()).isEqualTo(c.code());
    }
    // A kind outside the enum does not even decode: the sender's error, never a 500.
    assertThat(work.failureOfJson(ProviderSubjects.ADMIN_PUT, java.util.Map.of("id", "p", "kind", "mistral", "baseUrl", ok), admin))
        .isEqualTo(ErrorCode.MALFORMED_JSON);
    assertThat(sql.list("select count(*) from providers where id = 'p'", Long.class).getFirst()).isZero();
  }

  private ProviderView put(Actor actor, String id, String kind, String baseUrl, String key, List<String> models) {
    return work.call(ProviderSubjects.ADMIN_PUT, new PutProvider(id, ProviderKind.fromWire(kind), baseUrl, key, models), actor);
  }

  private AccessChanged setMode(String mode) {
    return work.call(TaskSubjects.ADMIN_ACCESS_SET, new SetAccess(mode), admin);
  }

  private static ErrorCode catching(Runnable action) {
    try {
      action.run();
    } catch (WorkcellException e) {
      return e.code();
    }
    throw new AssertionError("no failure");
  }
}
