package dev.workcell.terminal.openterminal.service;

import dev.workcell.terminal.config.TerminalServiceSettings;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * The Open Terminal key, for the terminal endpoints the gateway relays here as they are: the
 * WebSocket's first message carries it, so this service must know it. Compared as SHA-256 digests
 * in constant time.
 */
@ApplicationScoped
public class ServerKey {

  private final Optional<byte[]> expected;

  public ServerKey(TerminalServiceSettings settings) {
    Optional<String> key = settings.serverKey().filter(k -> !k.isBlank()).map(String::trim)
        .or(() -> settings.serverKeyFile().flatMap(ServerKey::read));
    this.expected = key.filter(k -> !k.isBlank()).map(ServerKey::digest);
    if (expected.isEmpty()) {
      Log.warn("no Open Terminal key configured (WORKCELL_TERMINAL_SERVER_KEY[_FILE]): every terminal is refused");
    }
  }

  public boolean matches(String given) {
    return expected.isPresent() && given != null && MessageDigest.isEqual(expected.get(), digest(given.trim()));
  }

  /** {@code Authorization: Bearer <key>}. */
  public boolean matchesBearer(String authorization) {
    return authorization != null && authorization.length() > 7 && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
        && matches(authorization.substring(7));
  }

  private static Optional<String> read(Path file) {
    try {
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim());
    } catch (IOException e) {
      Log.warnf("cannot read the Open Terminal key file %s: %s", file, e.toString());
      return Optional.empty();
    }
  }

  private static byte[] digest(String key) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
