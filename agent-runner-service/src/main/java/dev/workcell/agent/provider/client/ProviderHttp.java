package dev.workcell.agent.provider.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The HTTP edge to model providers: posts JSON and hands the streamed answer over line by line.
 * A non-2xx answer becomes {@code provider_error} with the provider's own message (bounded); the
 * request headers, which hold the key, never appear in an error or a log. Streams are watched for
 * silence ({@link StreamIdleWatch}).
 */
public final class ProviderHttp {

  private static final int ERROR_BODY_MAX_CHARS = 2_000;

  private final HttpClient client;
  private final ObjectMapper mapper;
  private final Duration headersTimeout;
  private final Duration idleTimeout;
  private final int maxLineChars;

  public ProviderHttp(ObjectMapper mapper, Duration headersTimeout, Duration idleTimeout, int maxLineChars) {
    this.maxLineChars = maxLineChars;
    this.mapper = mapper;
    this.headersTimeout = headersTimeout;
    this.idleTimeout = idleTimeout;
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  public ObjectMapper mapper() {
    return mapper;
  }

  /**
   * Posts {@code body} and feeds every line of the streamed answer to {@code lines}. A stream that
   * delivers no bytes for the idle timeout is cut and fails the round ({@code provider_error}).
   */
  public void streamLines(String url, Map<String, String> headers, Object body, Consumer<String> lines) {
    StreamIdleWatch watch = new StreamIdleWatch(idleTimeout);
    HttpResponse<InputStream> response = send(url, headers, body, info -> watch.counting(HttpResponse.BodySubscribers.ofInputStream()));
    try (InputStream in = response.body(); watch) {
      watch.watch(in);
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      if (response.statusCode() / 100 != 2) {
        throw failure(url, response.statusCode(), bounded(reader));
      }
      BoundedLineReader lineReader = new BoundedLineReader(reader, maxLineChars);
      StringBuilder line = new StringBuilder();
      while (lineReader.next(line)) {
        lines.accept(line.toString());
      }
    } catch (IOException e) {
      if (watch.fired()) {
        throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "no data from the provider for " + StreamIdleWatch.describe(idleTimeout), e);
      }
      throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "the provider stream broke: " + e.getMessage(), e);
    }
  }

  /** The start of an error answer; the rest is not read. */
  private static String bounded(BufferedReader reader) throws IOException {
    char[] buffer = new char[ERROR_BODY_MAX_CHARS + 1];
    int filled = 0;
    int read;
    while (filled < buffer.length && (read = reader.read(buffer, filled, buffer.length - filled)) != -1) {
      filled += read;
    }
    return new String(buffer, 0, filled);
  }

  /** Posts {@code body} and returns the JSON answer, read up to the line limit (a longer one is provider_error). */
  public JsonNode postJson(String url, Map<String, String> headers, Object body) {
    HttpResponse<InputStream> response = send(url, headers, body, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = response.body()) {
      if (response.statusCode() / 100 != 2) {
        throw failure(url, response.statusCode(), bounded(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))));
      }
      byte[] answer = in.readNBytes(maxLineChars + 1);
      if (answer.length > maxLineChars) {
        throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "the provider's answer is longer than " + maxLineChars + " bytes");
      }
      return mapper.readTree(answer);
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "the provider answered invalid JSON", e);
    }
  }

  private <T> HttpResponse<T> send(String url, Map<String, String> headers, Object body, HttpResponse.BodyHandler<T> handler) {
    HttpRequest.Builder request;
    try {
      request = HttpRequest.newBuilder(URI.create(url))
          .timeout(headersTimeout)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(mapper.writeValueAsBytes(body)));
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.INTERNAL, "cannot encode the provider request", e);
    }
    headers.forEach(request::header);
    try {
      return client.send(request.build(), handler);
    } catch (java.net.http.HttpTimeoutException e) {
      throw new WorkcellException(ErrorCode.UPSTREAM_TIMEOUT, "the provider did not answer within " + headersTimeout.toSeconds() + " s", e);
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "the provider is not reachable: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WorkcellException(ErrorCode.CANCELLED, "the round was interrupted", e);
    }
  }

  private WorkcellException failure(String url, int status, String body) {
    String text = body == null ? "" : body.strip();
    if (text.length() > ERROR_BODY_MAX_CHARS) {
      text = text.substring(0, ERROR_BODY_MAX_CHARS) + "…";
    }
    // Only the path: a Gemini-style URL could carry a key in its query on some deployments.
    String path = URI.create(url).getPath();
    return new WorkcellException(ErrorCode.PROVIDER_ERROR, "provider answered HTTP " + status + " on " + path + ": " + text);
  }

  /** Tool arguments as the provider wants them back: a JSON object, or {} when they were not one. */
  public JsonNode objectOrEmpty(String arguments) {
    try {
      JsonNode node = mapper.readTree(arguments == null ? "{}" : arguments);
      return node != null && node.isObject() ? node : mapper.createObjectNode();
    } catch (IOException e) {
      return mapper.createObjectNode();
    }
  }

  /** Base URLs are configured with or without a trailing slash; paths are appended to the bare form. */
  public static String withoutTrailingSlash(String baseUrl) {
    return baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
  }
}
