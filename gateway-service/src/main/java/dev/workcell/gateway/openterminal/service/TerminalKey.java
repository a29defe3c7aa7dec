package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.openterminal.config.TerminalSettings;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * The Open Terminal bearer key. Compared as SHA-256 digests with {@link MessageDigest#isEqual}, so
 * neither the content nor the length of the configured key leaks through timing.
 */
@ApplicationScoped
public class TerminalKey {

  private final Optional<byte[]> expected;

  public TerminalKey(TerminalSettings settings) {
    this.expected = load(settings).filter(key -> !key.isBlank()).map(TerminalKey::digest);
    if (expected.isEmpty()) {
      Log.warn("no Open Terminal key configured (WORKCELL_TERMINAL_SERVER_KEY[_FILE]): /api/open-terminal refuses every call");
    }
  }

  public boolean configured() {
    return expected.isPresent();
  }

  /** Throws {@code unauthenticated} unless {@code authorization} is {@code Bearer <the key>}. */
  public void verify(String authorization) {
    if (expected.isEmpty()) {
      throw new WorkcellException(ErrorCode.UNAUTHENTICATED, "The terminal server has no API key configured");
    }
    String given = bearer(authorization);
    if (given == null || !MessageDigest.isEqual(expected.get(), digest(given))) {
      throw new WorkcellException(ErrorCode.UNAUTHENTICATED, "Invalid API key");
    }
  }

  private static String bearer(String authorization) {
    if (authorization == null || authorization.length() < 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    return authorization.substring(7).trim();
  }

  private static Optional<String> load(TerminalSettings settings) {
    if (settings.serverKey().filter(key -> !key.isBlank()).isPresent()) {
      return settings.serverKey().map(String::trim);
    }
    return settings.serverKeyFile().flatMap(file -> {
      try {
        return Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim());
      } catch (IOException e) {
        Log.warnf("cannot read the Open Terminal key file %s: %s", file, e.toString());
        return Optional.empty();
      }
    });
  }

  private static byte[] digest(String key) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
