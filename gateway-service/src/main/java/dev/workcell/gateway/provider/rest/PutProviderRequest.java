package dev.workcell.gateway.provider.rest;

import java.util.List;

/**
 * A provider definition. {@code apiKey} absent keeps the stored key (refused when kind or baseUrl
 * change), {@code ""} removes it; {@code models} absent or empty allows any model. Unknown fields
 * are ignored, as in every other body of the gateway.
 */
public record PutProviderRequest(String kind, String baseUrl, String apiKey, List<String> models) {

  @Override
  public String toString() {
    return "PutProviderRequest[kind=" + kind + ", baseUrl=" + baseUrl + ", apiKey=" + (apiKey == null ? "null" : "<redacted>") + "]";
  }
}
