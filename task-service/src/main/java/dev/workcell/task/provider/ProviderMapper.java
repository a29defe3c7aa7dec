package dev.workcell.task.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.provider.ProviderRules;
import dev.workcell.contracts.provider.ProviderSummary;
import dev.workcell.contracts.provider.ProviderSummary.ModelSummary;
import dev.workcell.contracts.provider.ProviderView;
import dev.workcell.contracts.task.ProviderKind;
import java.time.OffsetDateTime;
import java.util.List;

/** Entity → records. No mapping here ever reads the key columns beyond "is there a key". */
public final class ProviderMapper {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

  private ProviderMapper() {}

  public static ProviderView toView(ProviderEntity p) {
    return new ProviderView(p.id, ProviderKind.fromWire(p.kind), p.baseUrl, p.hasApiKey(), models(p), instant(p.createdAt),
        instant(p.updatedAt));
  }

  /** What Work users see: id, kind and models with their remote flags; no URL, no key. */
  public static ProviderSummary toSummary(ProviderEntity p) {
    ProviderKind kind = ProviderKind.fromWire(p.kind);
    List<ModelSummary> models = models(p).stream().map(m -> new ModelSummary(m, ProviderRules.remoteModel(kind, m))).toList();
    return new ProviderSummary(p.id, kind, "admin", ProviderRules.remoteKind(kind), models);
  }

  public static List<String> models(ProviderEntity p) {
    try {
      return p.models == null ? List.of() : JSON.readValue(p.models, STRINGS);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("providers.models of " + p.id + " is not a JSON array", e);
    }
  }

  public static String modelsJson(List<String> models) {
    try {
      return JSON.writeValueAsString(models);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static java.time.Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }
}
