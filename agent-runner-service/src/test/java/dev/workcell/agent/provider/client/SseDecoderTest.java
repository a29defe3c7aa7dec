package dev.workcell.agent.provider.client;

import dev.workcell.agent.provider.ProviderRoute;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseDecoderTest {

  @Test
  void joinsDataLinesKeepsEventNamesAndSkipsComments() {
    List<String> seen = new ArrayList<>();
    SseDecoder decoder = new SseDecoder((event, data) -> seen.add(event + "|" + data));
    for (String line : List.of(": keep-alive", "event: content_block_delta", "data: {\"a\":", "data:1}", "", "data: [DONE]")) {
      decoder.accept(line);
    }
    decoder.finish();
    assertThat(seen).containsExactly("content_block_delta|{\"a\":\n1}", "null|[DONE]");
  }

  @Test
  void ollamaCloudNamesAreRemoteAndTheRouteNeverDefaultsToAnotherKind() {
    assertThat(new ProviderRoute(dev.workcell.contracts.task.ProviderKind.OLLAMA, null, "qwen3:8b").remote()).isFalse();
    assertThat(new ProviderRoute(dev.workcell.contracts.task.ProviderKind.OLLAMA, null, "gpt-oss:120b-cloud").remote()).isTrue();
    assertThat(new ProviderRoute(dev.workcell.contracts.task.ProviderKind.OLLAMA, null, "kimi-k2:cloud").remote()).isTrue();
    assertThat(new ProviderRoute(dev.workcell.contracts.task.ProviderKind.OLLAMA_CLOUD, null, "x").effectiveProviderId()).isEqualTo("ollama");
    assertThat(new ProviderRoute(dev.workcell.contracts.task.ProviderKind.GEMINI, "", "x").effectiveProviderId()).isEqualTo("gemini");
  }
}
