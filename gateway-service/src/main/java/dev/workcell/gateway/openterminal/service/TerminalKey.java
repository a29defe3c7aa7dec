package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.openterminal.config.TerminalSettings;
import dev.workcell.messaging.SharedSecret;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;

/** The Open Terminal bearer key, compared in constant time ({@link SharedSecret}). */
@ApplicationScoped
public class TerminalKey {

  private final SharedSecret expected;

  public TerminalKey(TerminalSettings settings) {
    this.expected = SharedSecret.of(settings.serverKey(), settings.serverKeyFile());
    if (!expected.configured()) {
      Log.warn("no Open Terminal key configured (WORKCELL_TERMINAL_SERVER_KEY[_FILE]): /api/open-terminal refuses every call");
    }
  }

  public boolean configured() {
    return expected.configured();
  }

  /** Throws {@code unauthenticated} unless {@code authorization} is {@code Bearer <the key>}. */
  public void verify(String authorization) {
    if (!expected.configured()) {
      throw new WorkcellException(ErrorCode.UNAUTHENTICATED, "The terminal server has no API key configured");
    }
    if (!expected.matches(SharedSecret.bearer(authorization))) {
      throw new WorkcellException(ErrorCode.UNAUTHENTICATED, "Invalid API key");
    }
  }
}
