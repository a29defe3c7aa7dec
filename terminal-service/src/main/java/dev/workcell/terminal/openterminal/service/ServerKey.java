package dev.workcell.terminal.openterminal.service;

import dev.workcell.messaging.SharedSecret;
import dev.workcell.terminal.config.TerminalServiceSettings;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The Open Terminal key, for the terminal endpoints the gateway relays here as they are: the
 * WebSocket's first message carries it, so this service must know it (the gateway's key, the same file).
 */
@ApplicationScoped
public class ServerKey {

  private final SharedSecret key;

  public ServerKey(TerminalServiceSettings settings) {
    this.key = SharedSecret.of(settings.serverKey(), settings.serverKeyFile());
    if (!key.configured()) {
      Log.warn("no Open Terminal key configured (WORKCELL_TERMINAL_SERVER_KEY[_FILE]): every terminal is refused");
    }
  }

  public boolean matches(String given) {
    return key.matches(given);
  }

  /** {@code Authorization: Bearer <key>}. */
  public boolean matchesBearer(String authorization) {
    return key.matches(SharedSecret.bearer(authorization));
  }
}
