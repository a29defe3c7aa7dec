package dev.workcell.sandbox.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Workcell's seccomp profile (resource {@code seccomp/sandbox.json}): the engine's default profile
 * without io_uring. Docker takes a custom profile as the JSON itself in the security option, and
 * inspect reports it back verbatim, so the option string is what every sandbox must carry.
 */
public final class SeccompProfile {

  private static final String RESOURCE = "/seccomp/sandbox.json";

  /** The profile, compact: {@code seccomp=<json>}. */
  public static final String SECURITY_OPT = "seccomp=" + compact(load());
  /** Names the profile in the hardening description (the whole JSON would make it unreadable). */
  public static final String SHA256 = sha256(SECURITY_OPT);

  private SeccompProfile() {}

  private static String load() {
    try (InputStream in = SeccompProfile.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + RESOURCE + " is missing from the build");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Re-serialised without whitespace: about a third of the file's size in every inspect. */
  private static String compact(String json) {
    try {
      ObjectMapper mapper = new ObjectMapper();
      return mapper.writeValueAsString(mapper.readTree(json));
    } catch (IOException e) {
      throw new IllegalStateException("resource " + RESOURCE + " is not valid JSON", e);
    }
  }

  /** The hash a security option is named by in drift reports. */
  public static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }
}
