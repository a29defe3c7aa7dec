package dev.workcell.contracts.provider;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.ProviderKind;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of a provider definition, checked by the gateway (to fail fast) and again by
 * task-service (the owner), with the same codes on both sides.
 */
public final class ProviderRules {

  public static final int BASE_URL_MAX_CHARS = 2_000;
  public static final int API_KEY_MAX_CHARS = 4_096;
  public static final int MODELS_MAX = 200;

  /** Kinds an admin can configure; {@code ollama_cloud} routes are served by an {@code ollama} provider. */
  public static final List<ProviderKind> KINDS = List.of(ProviderKind.OLLAMA, ProviderKind.OPENAI, ProviderKind.ANTHROPIC,
      ProviderKind.GEMINI);

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]+");

  private ProviderRules() {}

  public static String id(String id) {
    if (id == null || id.isEmpty()) {
      throw invalid("a provider id is required");
    }
    if (id.length() > Limits.PROVIDER_ID_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.PROVIDER_ID_TOO_LONG, null);
    }
    if (!ID.matcher(id).matches()) {
      throw invalid("a provider id may hold only letters, digits, '.', '_' and '-'");
    }
    return id;
  }

  /** A kind as a client names it: exactly its wire name. */
  public static ProviderKind kind(String kind) {
    return kind(KINDS.stream().filter(k -> k.wire().equals(kind)).findFirst().orElse(null));
  }

  public static ProviderKind kind(ProviderKind kind) {
    if (kind == null || !KINDS.contains(kind)) {
      throw invalid("kind must be one of " + String.join(", ", KINDS.stream().map(ProviderKind::wire).toList()));
    }
    return kind;
  }

  /** An absolute http(s) URL with a host, without user info or fragment, at most 2,000 characters. */
  public static String baseUrl(String baseUrl) {
    if (baseUrl == null || baseUrl.isBlank()) {
      throw invalid("baseUrl is required");
    }
    if (baseUrl.length() > BASE_URL_MAX_CHARS) {
      throw invalid("baseUrl exceeds " + BASE_URL_MAX_CHARS + " characters");
    }
    URI uri;
    try {
      uri = new URI(baseUrl);
    } catch (URISyntaxException e) {
      throw invalid("baseUrl is not a valid URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw invalid("baseUrl must be an absolute http or https URL");
    }
    if (uri.getRawUserInfo() != null) {
      throw invalid("baseUrl must not carry credentials; use apiKey");
    }
    if (uri.getRawFragment() != null) {
      throw invalid("baseUrl must not have a fragment");
    }
    return baseUrl;
  }

  /** Null keeps the stored key; the key goes into an HTTP header, so only visible ASCII passes. */
  public static String apiKey(String apiKey) {
    if (apiKey == null) {
      return null;
    }
    if (apiKey.length() > API_KEY_MAX_CHARS) {
      throw invalid("apiKey exceeds " + API_KEY_MAX_CHARS + " characters");
    }
    for (int i = 0; i < apiKey.length(); i++) {
      char c = apiKey.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        throw invalid("apiKey may hold only visible ASCII characters");
      }
    }
    return apiKey;
  }

  /** At most 200 model ids, each 1-500 characters and UTF-8 bytes; duplicates collapse. */
  public static List<String> models(List<String> models) {
    if (models == null) {
      return List.of();
    }
    if (models.size() > MODELS_MAX) {
      throw invalid("at most " + MODELS_MAX + " models");
    }
    Set<String> unique = new LinkedHashSet<>();
    for (String model : models) {
      if (model == null || model.isBlank()) {
        throw invalid("a model id must not be empty");
      }
      if (model.length() > Limits.MODEL_ID_MAX_CHARS || model.getBytes(StandardCharsets.UTF_8).length > Limits.MODEL_ID_MAX_CHARS) {
        throw new WorkcellException(ErrorCode.MODEL_ID_TOO_LONG, null);
      }
      unique.add(model);
    }
    return List.copyOf(new ArrayList<>(unique));
  }

  /** Whether the provider kind sends data out of the deployment (every plugin kind). */
  public static boolean remoteKind(ProviderKind kind) {
    return kind != ProviderKind.OLLAMA && kind != ProviderKind.OLLAMA_CLOUD;
  }

  /** Seed 004: plugin models and Ollama names ending in {@code :cloud} or {@code -cloud} are remote. */
  public static boolean remoteModel(ProviderKind kind, String model) {
    return remoteKind(kind) || kind == ProviderKind.OLLAMA_CLOUD || model.endsWith(":cloud") || model.endsWith("-cloud");
  }

  private static WorkcellException invalid(String message) {
    return new WorkcellException(ErrorCode.INVALID_REQUEST, message);
  }
}
