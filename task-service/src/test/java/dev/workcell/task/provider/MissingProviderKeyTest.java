package dev.workcell.task.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.provider.ProviderApi.PutProvider;
import dev.workcell.contracts.provider.ProviderApi.ResolveProvider;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.contracts.provider.ProviderView;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.Sql;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Without a key file, providers still work but no API key is ever stored (nor in plaintext). */
@QuarkusTest
@TestProfile(MissingProviderKeyTest.NoKeyFile.class)
class MissingProviderKeyTest {

  public static class NoKeyFile implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.task.provider-key-file", "target/no-such-provider-key");
    }
  }

  @Inject
  NatsRequester nats;

  @Inject
  Sql sql;

  @Test
  void aKeyIsRefusedClearlyAndNothingIsStored() {
    WorkClient work = new WorkClient(nats);
    Actor admin = work.admin();
    String id = "nokey-" + UUID.randomUUID();

    ErrorCode refused = work.failure(ProviderSubjects.ADMIN_PUT, new PutProvider(id, ProviderKind.OPENAI, "https://api.example.test/v1",
        "sk-" + UUID.randomUUID(), null), admin);

    assertThat(refused).isEqualTo(ErrorCode.SERVICE_UNAVAILABLE);
    assertThat(sql.list("select count(*) from providers where id = ?1", Long.class, id).getFirst()).isZero();
    // A provider without a key (a local Ollama) needs no key file.
    ProviderView keyless = work.call(ProviderSubjects.ADMIN_PUT, new PutProvider(id, ProviderKind.OLLAMA, "http://127.0.0.1:11434", null, null), admin);
    assertThat(keyless.hasApiKey()).isFalse();
    assertThat(work.call(ProviderSubjects.RESOLVE, new ResolveProvider(id), WorkClient.RUNNER).apiKey()).isNull();
  }
}
