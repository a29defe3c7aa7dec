package dev.workcell.contracts.provider;

import dev.workcell.contracts.task.ProviderKind;
import java.time.Instant;
import java.util.List;

/** Requests and replies of the provider subjects ({@link ProviderSubjects}). */
public final class ProviderApi {

  private ProviderApi() {}

  /**
   * Creates or replaces provider {@code id}. {@code apiKey} null keeps the stored key (only while
   * kind and base URL stay the same), empty removes it. {@code models} null or empty: any model.
   */
  public record PutProvider(String id, ProviderKind kind, String baseUrl, String apiKey, List<String> models) {

    @Override
    public String toString() {
      return "PutProvider[id=" + id + ", kind=" + kind + ", baseUrl=" + baseUrl + ", apiKey=" + (apiKey == null ? "null" : "<redacted>")
          + ", models=" + models + "]";
    }
  }

  public record ProviderRef(String id) {}

  public record ListProviders() {}

  public record ProviderList(List<ProviderView> providers) {}

  public record ProviderDeleted(String id) {}

  /** What callers may choose from, by provider id. */
  public record ProviderCatalog(List<ProviderSummary> providers) {}

  public record ResolveProvider(String id) {}

  /** A provider as the runner calls it; {@code apiKey} is the decrypted key or null. Never logged. */
  public record ResolvedProvider(String id, ProviderKind kind, String baseUrl, String apiKey, List<String> models, Instant updatedAt) {

    @Override
    public String toString() {
      return "ResolvedProvider[id=" + id + ", kind=" + kind + ", apiKey=" + (apiKey == null ? "null" : "<redacted>") + "]";
    }
  }
}
