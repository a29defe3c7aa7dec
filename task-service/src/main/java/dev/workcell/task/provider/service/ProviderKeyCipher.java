package dev.workcell.task.provider.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.task.config.TaskSettings;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts provider API keys at rest with AES-256-GCM. The AES key is the SHA-256 of the secret
 * file's content (the launcher writes 32 random bytes, base64); the database never sees it. The
 * provider id is the associated data, so a ciphertext copied onto another provider's row fails to open.
 * Without a usable key file no key can be stored or read: a clear {@code service_unavailable},
 * never plaintext.
 */
@ApplicationScoped
public class ProviderKeyCipher {

  /** Shorter secrets are refused: the file must carry at least 256 bits of randomness. */
  static final int MIN_SECRET_CHARS = 32;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Ciphertext (with the GCM tag) and its nonce, as stored. */
  public record Sealed(byte[] ciphertext, byte[] nonce) {}

  private final SecretKey key;
  private final String unavailable;

  @Inject
  public ProviderKeyCipher(TaskSettings settings) {
    this(settings.providerKeyFile());
  }

  /** A cipher over the given secret file (tests open stored keys with another file this way). */
  public ProviderKeyCipher(Optional<String> file) {
    SecretKey loaded = null;
    String problem;
    if (file.isEmpty() || file.get().isBlank()) {
      problem = "no provider key file is configured (workcell.task.provider-key-file / WORKCELL_PROVIDER_KEY_FILE)";
    } else {
      try {
        String secret = Files.readString(Path.of(file.get()), StandardCharsets.UTF_8).strip();
        if (secret.length() < MIN_SECRET_CHARS) {
          problem = "the provider key file holds fewer than " + MIN_SECRET_CHARS + " characters";
        } else {
          byte[] digest = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
          loaded = new SecretKeySpec(digest, "AES");
          problem = null;
        }
      } catch (IOException e) {
        problem = "the provider key file cannot be read: " + e.getClass().getSimpleName();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("SHA-256 is not available", e);
      }
    }
    this.key = loaded;
    this.unavailable = problem;
    if (problem != null) {
      Log.warnf("provider API keys cannot be stored or used: %s", problem);
    }
  }

  public boolean available() {
    return key != null;
  }

  public Sealed seal(String providerId, String plaintext) {
    requireKey();
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = cipher(Cipher.ENCRYPT_MODE, providerId, nonce);
      return new Sealed(cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8)), nonce);
    } catch (GeneralSecurityException e) {
      throw new WorkcellException(ErrorCode.INTERNAL, "the provider key could not be encrypted", e);
    }
  }

  public String open(String providerId, byte[] ciphertext, byte[] nonce) {
    requireKey();
    try {
      return new String(cipher(Cipher.DECRYPT_MODE, providerId, nonce).doFinal(ciphertext), StandardCharsets.UTF_8);
    } catch (GeneralSecurityException e) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "the API key of provider " + providerId
          + " cannot be decrypted: the provider key file is not the one it was stored with (store the key again)");
    }
  }

  private Cipher cipher(int mode, String providerId, byte[] nonce) throws GeneralSecurityException {
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(providerId.getBytes(StandardCharsets.UTF_8));
    return cipher;
  }

  private void requireKey() {
    if (key == null) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "provider API keys cannot be stored or used: " + unavailable);
    }
  }
}
