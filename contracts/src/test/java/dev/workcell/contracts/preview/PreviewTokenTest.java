package dev.workcell.contracts.preview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PreviewTokenTest {

  private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);
  private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  @Test
  void aSignatureWhoseLastCharacterDiffersOnlyInUnusedBitsIsRefused() {
    for (int i = 0; i < 64; i++) { // many signatures, so every last character's case is met
      PreviewToken claims = new PreviewToken("task-" + i, "alice", i, Instant.now().plusSeconds(60).getEpochSecond());
      String token = claims.sign(KEY);
      assertThat(PreviewToken.verify(KEY, token, Instant.now())).isEqualTo(claims);
      char last = token.charAt(token.length() - 1);
      // 32 bytes in base64: the last character carries 4 bits; its lowest 2 are unused.
      String twin = token.substring(0, token.length() - 1) + ALPHABET.charAt(ALPHABET.indexOf(last) ^ 1);
      assertThatThrownBy(() -> PreviewToken.verify(KEY, twin, Instant.now()))
          .isInstanceOfSatisfying(PreviewToken.RefusedException.class, e -> assertThat(e.code).isEqualTo(ErrorCode.PREVIEW_LINK_INVALID));
    }
  }
}
