package dev.workcell.previewproxy.preview.service;

import dev.workcell.messaging.relay.HttpRelay;
import io.vertx.core.MultiMap;
import java.util.List;
import java.util.Locale;

/**
 * What never crosses between a person's browser and a preview: Workcell credentials and cookies
 * (both ways), and what a preview's page may do. The CSP sandbox (no allow-same-origin) gives the
 * page an opaque origin, so its scripts cannot read the gateway's origin (tokens, other previews).
 */
public final class PreviewHardening implements HttpRelay.Edits {

  public static final String CSP = "sandbox allow-scripts allow-forms allow-modals allow-downloads allow-popups";
  public static final PreviewHardening INSTANCE = new PreviewHardening();

  private static final List<String> CLIENT_ONLY = List.of("authorization", "cookie", "proxy-authorization",
      "forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip");

  private PreviewHardening() {}

  @Override
  public void request(MultiMap headers) {
    CLIENT_ONLY.forEach(headers::remove);
  }

  @Override
  public void response(int status, MultiMap headers) {
    headers.remove("set-cookie");
    headers.remove("set-cookie2");
    // Added beside any policy of the preview's own: browsers enforce every CSP header, so it can only narrow.
    headers.add("Content-Security-Policy", CSP);
    headers.set("X-Content-Type-Options", "nosniff");
    String type = headers.get("content-type");
    if (type != null && type.toLowerCase(Locale.ROOT).startsWith("text/html")) {
      headers.set("Cache-Control", "no-store");
    }
  }
}
