package dev.workcell.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.FileBytes;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.WriteFile;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** What travels on NATS for a file's content: large values as raw bytes after the JSON, small ones as JSON. */
class MessageCodecTest {

  private final MessageCodec codec = new MessageCodec(new ObjectMapper().findAndRegisterModules()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)); // as Quarkus configures it

  @Test
  void aLargeTextTravelsAsItsOwnBytesNotAsEscapedJson() {
    // Quotes, newlines and non-ASCII: JSON would escape the first two (2 bytes each).
    String text = "line \"å\" ✓\n".repeat(200_000);
    int utf8 = text.getBytes(StandardCharsets.UTF_8).length;
    WriteFile write = new WriteFile(new SandboxRef("task", "t-1"), "dir/ä.txt", text, "v1", true);

    byte[] body = codec.encode(write);

    assertThat(body.length).isBetween(utf8, utf8 + 256);
    assertThat(codec.decode(body, WriteFile.class)).isEqualTo(write);
  }

  @Test
  void aLoneSurrogateInALargeTextBecomesTheReplacementCharacter() {
    String text = "x".repeat(10_000) + "\uD800" + "y"; // half of a pair, as a client's JSON escape can carry it
    WriteFile write = new WriteFile(new SandboxRef("task", "t-1"), "a.txt", text, null, false);

    WriteFile back = codec.decode(codec.encode(write), WriteFile.class);

    assertThat(back.content()).isEqualTo("x".repeat(10_000) + "\uFFFDy");
  }

  @Test
  void textAlreadyInUtf8IsFramedAsItIs() {
    byte[] text = "line \"å\" ✓\n".repeat(1_000).getBytes(StandardCharsets.UTF_8);
    WriteFile without = new WriteFile(new SandboxRef("task", "t-1"), "a.txt", null, "v1", true);

    byte[] body = codec.encode(new BulkMessage<>(without, text));

    assertThat(codec.decode(body, WriteFile.class))
        .isEqualTo(new WriteFile(new SandboxRef("task", "t-1"), "a.txt", new String(text, StandardCharsets.UTF_8), "v1", true));
  }

  /** sandbox-service takes a text write's content as the bytes that came (issue 23): never a string, never checked here. */
  @Test
  void aBulkReceiverGetsTheFramedBytesAsTheyCame() {
    byte[] text = ("line \"å\" ✓\n".repeat(1_000) + "\u00ff").getBytes(StandardCharsets.UTF_8);
    text[5] = (byte) 0xff; // not UTF-8: the sandbox's celld refuses it, the codec passes it on untouched
    WriteFile without = new WriteFile(new SandboxRef("task", "t-1"), "a.txt", null, "v1", true);

    BulkMessage<WriteFile> back = codec.decodeBulk(codec.encode(new BulkMessage<>(without, text)), WriteFile.class);

    assertThat(back.value()).isEqualTo(without);
    assertThat(back.text()).isEqualTo(text);
  }

  @Test
  void aSmallTextInTheJsonComesAsTheBytesAFrameWouldCarry() {
    WriteFile small = new WriteFile(new SandboxRef("task", "t-1"), "a.txt", "hé\uD800!", null, false);

    BulkMessage<WriteFile> back = codec.decodeBulk(codec.encode(small), WriteFile.class);

    assertThat(back.value()).isEqualTo(new WriteFile(new SandboxRef("task", "t-1"), "a.txt", null, null, false));
    assertThat(back.text()).isEqualTo(new byte[] {'h', (byte) 0xc3, (byte) 0xa9, (byte) 0xef, (byte) 0xbf, (byte) 0xbd, '!'});
    assertThat(codec.decodeBulk(codec.encode(new WriteFile(null, "a.txt", null, null, false)), WriteFile.class).text()).isNull();
  }

  @Test
  void aBulkFrameThatDoesNotFitIsTheSendersError() {
    byte[] body = {0, 0, 0, 0, 99, '{', '}'};

    assertThatThrownBy(() -> codec.decodeBulk(body, WriteFile.class))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_JSON));
  }

  @Test
  void largeBytesSkipBase64() {
    byte[] data = new byte[2_000_000];
    Arrays.fill(data, (byte) 0xff);
    FileBytes chunk = new FileBytes("a.bin", data, 0, 2_000_000, true, "v");

    byte[] body = codec.encode(chunk);

    assertThat(body.length).isLessThan(2_000_000 + 256);
    FileBytes back = codec.decode(body, FileBytes.class);
    assertThat(back.data()).isEqualTo(data);
    assertThat(back).extracting(FileBytes::path, FileBytes::size, FileBytes::eof, FileBytes::version)
        .containsExactly("a.bin", 2_000_000L, true, "v");
  }

  @Test
  void smallValuesStayPlainJson() {
    FileContent small = new FileContent("a.txt", "hello", 5, "v");

    byte[] body = codec.encode(small);

    assertThat(new String(body, StandardCharsets.UTF_8)).startsWith("{").contains("\"content\":\"hello\"");
    assertThat(codec.decode(body, FileContent.class)).isEqualTo(small);
  }

  @Test
  void aFrameThatDoesNotFitIsTheSendersError() {
    byte[] body = codec.encode(new FileContent("a.txt", "x".repeat(100_000), 100_000, "v"));

    assertThatThrownBy(() -> codec.decode(Arrays.copyOf(body, 3), FileContent.class))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_JSON));
    byte[] lying = body.clone();
    lying[1] = 0x7f; // a JSON length far beyond the body
    assertThatThrownBy(() -> codec.decode(lying, FileContent.class))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_JSON));
    assertThatThrownBy(() -> codec.decode(body, SandboxRef.class))
        .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_JSON));
  }
}
