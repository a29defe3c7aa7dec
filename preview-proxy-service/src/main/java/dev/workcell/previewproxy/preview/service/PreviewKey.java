package dev.workcell.previewproxy.preview.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.preview.PreviewToken;
import dev.workcell.previewproxy.preview.config.PreviewProxySettings;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/** The preview links' HMAC key: this service signs (issuer) and verifies (proxy); no other service holds it. */
@ApplicationScoped
public class PreviewKey {

  private final Optional<byte[]> key;

  public PreviewKey(PreviewProxySettings settings) {
    this.key = PreviewToken.key(settings.key(), settings.keyFile());
    if (key.isEmpty()) {
      Log.warn("no preview key configured (WORKCELL_PREVIEW_KEY[_FILE]): no link is issued and every link is refused");
    }
  }

  public boolean configured() {
    return key.isPresent();
  }

  public String sign(PreviewToken claims) {
    return claims.sign(key.orElseThrow(() -> new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "preview links are not configured")));
  }

  /** The claims of a valid, unexpired token; throws {@link PreviewToken.RefusedException} otherwise. */
  public PreviewToken verify(String token, Instant now) {
    return PreviewToken.verify(key.orElseThrow(), token, now);
  }
}
