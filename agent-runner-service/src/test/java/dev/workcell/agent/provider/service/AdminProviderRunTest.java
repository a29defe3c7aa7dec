package dev.workcell.agent.provider.service;

import static dev.workcell.agent.run.fixture.AdminProviderFixture.provider;
import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.agent.run.fixture.AdminProviderFixture;
import dev.workcell.agent.run.fixture.ProviderFixtureServers;
import dev.workcell.agent.run.fixture.RunHarness;
import dev.workcell.agent.run.fixture.ScriptedModels;
import dev.workcell.agent.run.fixture.TaskServiceFixture.FixtureRun;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.run.RunEventType;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs routed to admin-configured providers (task-service's resolve subject, played by a fixture):
 * the fixture providers refuse a request without the admin's key and record the one they received.
 */
@QuarkusTest
@QuarkusTestResource(ProviderFixtureServers.class)
class AdminProviderRunTest {

  private static final Duration RUN_DEADLINE = Duration.ofSeconds(30);

  @Inject
  RunHarness harness;

  @Inject
  AdminProviderFixture admin;

  @ParameterizedTest
  @ValueSource(strings = {"openai", "anthropic", "ollama", "gemini"})
  void aRunUsesTheAdminProvidersKeyOnEveryRequest(String kind) throws Exception {
    String id = "admin-" + kind + "-" + UUID.randomUUID();
    String key = keyPrefix(kind) + "-" + UUID.randomUUID();
    String model = "scripted-" + UUID.randomUUID();
    admin.script(id, provider(id, kind, baseUrl(kind), key, List.of()));

    FixtureRun run = harness.runToEnd(harness.prepare(kind, id, model), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(ScriptedModels.credentials(model)).hasSize(3).containsOnly(header(kind, key));
    assertThat(admin.askedBy(id)).containsOnly("service:agent-runner");
    assertThat(harness.events(run)).noneSatisfy(e -> assertThat(e.data().toString()).contains(key));
  }

  @Test
  void aKeyChangedBetweenRoundsIsUsedOnTheNextRound() throws Exception {
    String id = "rotating-" + UUID.randomUUID();
    String first = "sk-test-openai-first-" + UUID.randomUUID();
    String second = "sk-test-openai-second-" + UUID.randomUUID();
    String model = "scripted-" + UUID.randomUUID();
    // Resolves: the pre-run check, round 1 (first key), then the admin's new key from round 2 on.
    admin.script(id, provider(id, "openai", baseUrl("openai"), first, List.of()), provider(id, "openai", baseUrl("openai"), first, List.of()),
        provider(id, "openai", baseUrl("openai"), second, List.of()));

    FixtureRun run = harness.runToEnd(harness.prepare("openai", id, model), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(ScriptedModels.credentials(model)).containsExactly("Bearer " + first, "Bearer " + second, "Bearer " + second);
  }

  @Test
  void aProviderDeletedMidRunFailsTheNextRoundWithoutFallingBack() throws Exception {
    String id = "deleted-" + UUID.randomUUID();
    String key = "sk-test-anthropic-" + UUID.randomUUID();
    String model = "scripted-" + UUID.randomUUID();
    var configured = provider(id, "anthropic", baseUrl("anthropic"), key, List.of());
    admin.script(id, configured, configured, null);

    FixtureRun run = harness.runToEnd(harness.prepare("anthropic", id, model), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("failed");
    // One round reached the provider; the second was refused before any request, to any provider.
    assertThat(ScriptedModels.received(model)).hasSize(1);
    assertThat(ScriptedModels.credentials(model)).containsExactly(key);
    List<RunEvent> events = harness.events(run);
    assertThat(events).filteredOn(e -> e.type() == RunEventType.ERROR).singleElement()
        .satisfies(e -> assertThat(e.data()).containsEntry("code", "provider_not_found"));
    assertThat(events.getLast().data()).containsEntry("state", "failed");
  }

  @Test
  void aModelOrKindTheProviderDoesNotOfferIsRefusedBeforeAnyRound() throws Exception {
    String id = "narrow-" + UUID.randomUUID();
    admin.script(id, provider(id, "openai", baseUrl("openai"), "sk-test-openai-" + UUID.randomUUID(), List.of("only-this-model")));
    String model = "scripted-" + UUID.randomUUID();

    FixtureRun otherModel = harness.runToEnd(harness.prepare("openai", id, model), RUN_DEADLINE);
    FixtureRun otherKind = harness.runToEnd(harness.prepare("anthropic", id, "only-this-model"), RUN_DEADLINE);

    for (FixtureRun run : List.of(otherModel, otherKind)) {
      assertThat(run.state()).isEqualTo("failed");
      assertThat(harness.events(run)).anySatisfy(e -> assertThat(e.data()).containsEntry("code", "provider_not_found"));
    }
    assertThat(ScriptedModels.received(model)).isEmpty();
    assertThat(ScriptedModels.received("only-this-model")).isEmpty();
  }

  @Test
  void anEnvironmentProviderOwnsItsIdEvenWhenAnAdminProviderNamesIt() throws Exception {
    String model = "scripted-" + UUID.randomUUID();
    admin.script("openai", provider("openai", "openai", baseUrl("openai"), "sk-test-openai-admin-" + UUID.randomUUID(), List.of()));

    FixtureRun run = harness.runToEnd(harness.prepare("openai", "openai", model), RUN_DEADLINE);

    assertThat(run.state()).isEqualTo("completed");
    assertThat(ScriptedModels.credentials(model)).containsOnly("Bearer sk-test-openai");
    assertThat(admin.askedBy("openai")).isEmpty();
  }

  private static String baseUrl(String kind) {
    String property = kind.equals("ollama") ? "workcell.agent.providers.ollama-url" : "workcell.agent.providers." + kind + "-base-url";
    return ConfigProvider.getConfig().getValue(property, String.class);
  }

  private static String keyPrefix(String kind) {
    return switch (kind) {
      case "gemini" -> "test-gemini-key";
      default -> "sk-test-" + kind;
    };
  }

  private static String header(String kind, String key) {
    return kind.equals("openai") || kind.equals("ollama") ? "Bearer " + key : key;
  }
}
