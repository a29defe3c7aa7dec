package dev.workcell.contracts.preview;

import dev.workcell.contracts.error.ErrorCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signed part of a preview URL ({@code /api/work/previews/<token>/…}): the task, its owner (the
 * proxy names the sandbox by both), the preview's generation and an expiry, with an HMAC-SHA256 over
 * them under a key only preview-proxy holds (it issues and verifies). It travels in the path, so a
 * page's relative asset URLs carry it too. A new generation (every start) revokes older tokens.
 */
public record PreviewToken(String taskId, String ownerId, long generation, long expiresEpochSecond) {

  /** Path prefix of preview URLs on the gateway's public origin. */
  public static final String PATH_PREFIX = "/api/work/previews/";
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();
  private static final int MAX_TOKEN_CHARS = 1024;

  /** A refused token: {@code code} is {@link ErrorCode#PREVIEW_LINK_INVALID} or {@link ErrorCode#PREVIEW_LINK_EXPIRED}. */
  public static final class RefusedException extends RuntimeException {
    public final ErrorCode code;

    RefusedException(ErrorCode code, String message) {
      super(message, null, false, false);
      this.code = code;
    }
  }

  public String sign(byte[] key) {
    String payload = B64.encodeToString(payloadText().getBytes(StandardCharsets.UTF_8));
    return payload + "." + B64.encodeToString(hmac(key, payload));
  }

  /** The token's claims when the signature matches and it has not expired; throws otherwise. */
  public static PreviewToken verify(byte[] key, String token, Instant now) {
    if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
      throw new RefusedException(ErrorCode.PREVIEW_LINK_INVALID, "malformed preview link");
    }
    int dot = token.indexOf('.');
    if (dot <= 0 || dot != token.lastIndexOf('.')) {
      throw new RefusedException(ErrorCode.PREVIEW_LINK_INVALID, "malformed preview link");
    }
    String payload = token.substring(0, dot);
    String signature = token.substring(dot + 1);
    byte[] given;
    try {
      given = B64D.decode(signature);
    } catch (IllegalArgumentException e) {
      throw new RefusedException(ErrorCode.PREVIEW_LINK_INVALID, "malformed preview link");
    }
    // Only the canonical spelling: the decoder ignores a last character's unused bits, so a changed
    // last character (A→B) would otherwise decode to the same signature and a tampered link pass.
    if (!B64.encodeToString(given).equals(signature)) {
      throw new RefusedException(ErrorCode.PREVIEW_LINK_INVALID, "malformed preview link");
    }
    if (!MessageDigest.isEqual(hmac(key, payload), given)) { // constant time
      throw new RefusedException(ErrorCode.PREVIEW_LINK_INVALID, "the preview link's signature does not match");
    }
    PreviewToken claims = parse(new String(B64D.decode(payload), StandardCharsets.UTF_8));
    if (now.getEpochSecond() >= claims.expiresEpochSecond()) {
      throw new RefusedException(ErrorCode.PREVIEW_LINK_EXPIRED, "the preview link has expired");
    }
    return claims;
  }

  /** The key from its value, or else from the file (launcher secrets); empty when neither is set. */
  public static Optional<byte[]> key(Optional<String> value, Optional<Path> file) {
    Optional<String> text = value.map(String::strip).filter(v -> !v.isEmpty()).or(() -> file.map(PreviewToken::read));
    return text.filter(v -> !v.isEmpty()).map(v -> v.getBytes(StandardCharsets.UTF_8));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the preview key file " + file, e);
    }
  }

  // Newline-separated: a task id and a generation never hold one; an owner id is printable text.
  private String payloadText() {
    return taskId + "\n" + generation + "\n" + expiresEpochSecond + "\n" + ownerId;
  }

  private static PreviewToken parse(String text) {
    String[] parts = text.split("\n", 4);
    if (parts.length != 4) {
      throw new RefusedException(ErrorCode.PREVIEW_LINK_INVALID, "malformed preview link");
    }
    try {
      return new PreviewToken(parts[0], parts[3], Long.parseLong(parts[1]), Long.parseLong(parts[2]));
    } catch (NumberFormatException e) {
      throw new RefusedException(ErrorCode.PREVIEW_LINK_INVALID, "malformed preview link");
    }
  }

  private static byte[] hmac(byte[] key, String payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }
}
