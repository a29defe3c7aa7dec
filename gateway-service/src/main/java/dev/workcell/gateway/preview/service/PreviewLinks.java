package dev.workcell.gateway.preview.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.preview.PreviewToken;
import dev.workcell.gateway.preview.config.PreviewSettings;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/** Issues signed preview URLs (the gateway is the issuer; preview-proxy verifies). */
@ApplicationScoped
public class PreviewLinks {

  /** A signed preview URL; {@code path} is relative to the public origin, {@code url} absolute. */
  public record Link(String path, String url, Instant expiresAt) {}

  private final Optional<byte[]> key;
  private final PreviewSettings settings;
  private final Clock clock;

  public PreviewLinks(PreviewSettings settings) {
    this.settings = settings;
    this.clock = Clock.systemUTC();
    this.key = PreviewToken.key(settings.key(), settings.keyFile());
    if (key.isEmpty()) {
      Log.warn("no preview key configured (WORKCELL_PREVIEW_KEY[_FILE]): previews start but get no URL");
    }
  }

  public Link issue(String taskId, String ownerId, long generation, URI requestBase) {
    byte[] secret = key.orElseThrow(() -> new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "preview URLs are not configured"));
    Instant expires = clock.instant().plus(settings.urlTtl());
    String path = PreviewToken.PATH_PREFIX + new PreviewToken(taskId, ownerId, generation, expires.getEpochSecond()).sign(secret) + "/";
    URI origin = settings.publicUrl().orElse(requestBase);
    String base = origin.getScheme() + "://" + origin.getRawAuthority();
    return new Link(path, base + path, Instant.ofEpochSecond(expires.getEpochSecond()));
  }
}
