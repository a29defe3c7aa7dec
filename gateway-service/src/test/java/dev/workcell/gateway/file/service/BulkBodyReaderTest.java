package dev.workcell.gateway.file.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.file.rest.SaveFileRequest;
import dev.workcell.gateway.file.service.BulkBodyReader.BulkBody;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A save's body read with its content as UTF-8 bytes: the same text Jackson would have given, as bytes. */
class BulkBodyReaderTest {

  private final ObjectMapper mapper = new ObjectMapper().findAndRegisterModules()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES); // as Quarkus configures it
  private final BulkBodyReader reader = new BulkBodyReader(mapper);

  @ParameterizedTest
  @ValueSource(strings = {
      "plain ascii", "", "quotes \\\" and \\\\ backslash \\/ slash", "tabs\\tand\\nnewlines\\r\\b\\f",
      "åäö ✓ 𝄞 emoji 😀", "escaped \\u00e5 \\u2713 \\ud834\\udd1e pair", "\\u0000 nul and \\u001f unit separator",
      "lone \\ud800 surrogate", "lone low \\udc00 then text", "high then not low \\ud800\\u0041"})
  void theContentIsTheTextJacksonReadsAsUtf8(String escaped) throws Exception {
    String json = "{\"path\":\"a/ä.txt\",\"content\":\"" + escaped + "\",\"expectedVersion\":\"v1\",\"createParents\":true}";
    byte[] body = json.getBytes(StandardCharsets.UTF_8);

    BulkBody<SaveFileRequest> read = reader.read(body, SaveFileRequest.class);

    SaveFileRequest jackson = mapper.readValue(body, SaveFileRequest.class);
    assertThat(new String(read.text(), StandardCharsets.UTF_8)).isEqualTo(loneSurrogatesReplaced(jackson.content()));
    assertThat(read.value()).isEqualTo(new SaveFileRequest("a/ä.txt", null, "v1", true));
  }

  @Test
  void fieldsInAnyOrderWithTheContentFirstOrLast() {
    BulkBody<SaveFileRequest> first = reader.read(bytes("{\"content\":\"x\\ny\",\"path\":\"p\"}"), SaveFileRequest.class);
    BulkBody<SaveFileRequest> last = reader.read(bytes(" { \"path\" : \"p\" , \"content\" : \"x\\ny\" } "), SaveFileRequest.class);

    assertThat(first.text()).isEqualTo(bytes("x\ny"));
    assertThat(last.text()).isEqualTo(bytes("x\ny"));
    assertThat(first.value().path()).isEqualTo("p");
    assertThat(last.value().path()).isEqualTo("p");
  }

  @Test
  void aMissingOrNullContentIsNoText() {
    assertThat(reader.read(bytes("{\"path\":\"p\"}"), SaveFileRequest.class).text()).isNull();
    assertThat(reader.read(bytes("{\"path\":\"p\",\"content\":null}"), SaveFileRequest.class).text()).isNull();
    assertThat(reader.read(bytes("{\"content\":\"a\",\"content\":null}"), SaveFileRequest.class).text()).isNull();
  }

  @Test
  void aNumberIsCoercedAsJacksonWould() {
    assertThat(reader.read(bytes("{\"path\":\"p\",\"content\":42}"), SaveFileRequest.class).text()).isEqualTo(bytes("42"));
  }

  @Test
  void anEmptyBodyOrNullIsNoBody() {
    assertThat(reader.read(new byte[0], SaveFileRequest.class)).isNull();
    assertThat(reader.read(bytes("  null "), SaveFileRequest.class)).isNull();
    assertThat(reader.read(null, SaveFileRequest.class)).isNull();
  }

  @Test
  void aLargeTextComesBackByteForByte() {
    String text = "line \"å\" ✓ 𝄞\n".repeat(100_000);
    byte[] body = bytes("{\"path\":\"p\",\"content\":" + quoted(text) + "}");

    assertThat(reader.read(body, SaveFileRequest.class).text()).isEqualTo(bytes(text));
  }

  /** Plain runs are read eight bytes at a time: an escape, a multi-byte character or a stray control byte at any offset of a word. */
  @Test
  void whateverEndsAPlainRunIsSeenAtEveryOffset() throws Exception {
    for (String special : new String[] {"\\\"", "\\\\", "\\n", "\\u00e5", "é", "😀", "\u007f"}) {
      for (int length = 0; length <= 24; length++) {
        for (int at = 0; at <= length; at++) {
          String escaped = "a".repeat(at) + special + "b".repeat(length - at);
          byte[] body = bytes("{\"content\":\"" + escaped + "\"}");
          String jackson = mapper.readValue(body, SaveFileRequest.class).content();
          assertThat(reader.read(body, SaveFileRequest.class).text()).as(escaped).isEqualTo(bytes(jackson));
        }
      }
    }
    for (int at = 0; at < 20; at++) {
      String raw = "x".repeat(at) + "\u0001" + "y".repeat(20 - at);
      assertThatThrownBy(() -> reader.read(bytes("{\"content\":\"" + raw + "\"}"), SaveFileRequest.class))
          .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_JSON));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "[1,2]", "\"just a string\"", "{\"path\":\"p\",\"content\":\"no end}", "{\"content\":\"bad \\x escape\"}",
      "{\"content\":\"short \\u12\"}", "{\"content\":\"raw\ttab\"}", "{\"content\":\"a\"", "{\"content\":{\"a\":1}}",
      "{\"path\":\"p\" \"content\":\"a\"}"})
  void malformedBodiesAreTheClientsError(String json) {
    assertThatThrownBy(() -> reader.read(bytes(json), SaveFileRequest.class))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_JSON));
  }

  @Test
  void invalidUtf8IsRefused() {
    byte[][] invalid = {{(byte) 0xC3}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xE2, (byte) 0x28, (byte) 0xA1}, {(byte) 0x80}};
    for (byte[] bad : invalid) {
      byte[] head = bytes("{\"content\":\"a");
      byte[] tail = bytes("b\"}");
      byte[] body = new byte[head.length + bad.length + tail.length];
      System.arraycopy(head, 0, body, 0, head.length);
      System.arraycopy(bad, 0, body, head.length, bad.length);
      System.arraycopy(tail, 0, body, head.length + bad.length, tail.length);
      assertThatThrownBy(() -> reader.read(body, SaveFileRequest.class))
          .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_JSON));
    }
  }

  /** A lone surrogate is not text: it travels as U+FFFD, as the codec encodes it too. */
  private static String loneSurrogatesReplaced(String text) {
    StringBuilder out = new StringBuilder();
    text.codePoints().forEach(cp -> out.appendCodePoint(cp >= 0xD800 && cp <= 0xDFFF ? 0xFFFD : cp));
    return out.toString();
  }

  private String quoted(String text) {
    try {
      return mapper.writeValueAsString(text);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
