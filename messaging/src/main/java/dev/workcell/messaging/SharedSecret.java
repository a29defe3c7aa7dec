package dev.workcell.messaging;

import io.quarkus.logging.Log;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * A key two services share (the Open Terminal key: the gateway checks it on HTTP, terminal-service in
 * a WebSocket's first message), given as a value or in a file. Compared as SHA-256 digests with
 * {@link MessageDigest#isEqual}, so neither the content nor the length of the key leaks through timing.
 */
public final class SharedSecret {

  private final Optional<byte[]> digest;

  private SharedSecret(Optional<byte[]> digest) {
    this.digest = digest;
  }

  /** The value when set, else the file's content (trimmed); unconfigured when both are missing or blank. */
  public static SharedSecret of(Optional<String> value, Optional<Path> file) {
    Optional<String> key = value.filter(k -> !k.isBlank()).map(String::trim).or(() -> file.flatMap(SharedSecret::read));
    return new SharedSecret(key.filter(k -> !k.isBlank()).map(SharedSecret::digest));
  }

  public boolean configured() {
    return digest.isPresent();
  }

  public boolean matches(String given) {
    return digest.isPresent() && given != null && MessageDigest.isEqual(digest.get(), digest(given.trim()));
  }

  /** The token of {@code Authorization: Bearer <token>}, or null. */
  public static String bearer(String authorization) {
    if (authorization == null || authorization.length() < 7 || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    return authorization.substring(7).trim();
  }

  private static Optional<String> read(Path file) {
    try {
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim());
    } catch (IOException e) {
      Log.warnf("cannot read the key file %s: %s", file, e.toString());
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
