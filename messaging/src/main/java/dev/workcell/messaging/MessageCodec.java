package dev.workcell.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.workcell.contracts.Bulk;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import dev.workcell.messaging.budget.Utf8;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * JSON codec for the contract records. A body that does not decode is the sender's error.
 *
 * <p>A record whose {@link Bulk} value is large is framed instead: byte 0 (no JSON text starts with
 * it), the JSON's length (4 bytes, big-endian), the JSON without the bulk value, then the bulk
 * value's raw bytes (UTF-8 for a text). Jackson decodes a 2 MB JSON string through about 10 MB of
 * char buffers; the frame costs one copy, and bytes skip base64.
 */
@ApplicationScoped
public class MessageCodec {

  static final byte FRAMED = 0;
  /** Below this a bulk value stays in the JSON, readable as it is with the nats CLI. */
  static final int FRAME_FROM = 8 << 10;
  private static final int HEADER = 5;
  private static final byte[] REPLACEMENT = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

  private final ObjectMapper mapper;

  public MessageCodec(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  public byte[] encode(Object value) {
    try {
      if (value instanceof BulkMessage<?> message) {
        return framed(mapper.writeValueAsBytes(message.value()), message.text());
      }
      if (value != null) {
        Optional<BulkField> bulk = BulkField.of(value.getClass());
        if (bulk.isPresent()) {
          Object large = bulk.get().large(value, FRAME_FROM);
          if (large instanceof String text) {
            return framed(mapper.writeValueAsBytes(bulk.get().without(value)), text);
          }
          if (large instanceof byte[] raw) {
            return framed(mapper.writeValueAsBytes(bulk.get().without(value)), raw);
          }
        }
      }
      return mapper.writeValueAsBytes(value);
    } catch (JsonProcessingException | ReflectiveOperationException e) {
      throw new WorkcellException(ErrorCode.INTERNAL, "cannot encode " + value.getClass().getSimpleName(), e);
    }
  }

  public <T> T decode(byte[] data, Class<T> type) {
    if (type == Void.class) {
      return null;
    }
    try {
      T value = data != null && data.length > 0 && data[0] == FRAMED
          ? decodeFramed(data, type)
          : mapper.readValue(data == null || data.length == 0 ? "null".getBytes() : data, type);
      if (value == null) {
        throw new WorkcellException(ErrorCode.MALFORMED_JSON, "empty body, expected " + type.getSimpleName());
      }
      return value;
    } catch (IOException | IllegalArgumentException e) {
      throw new WorkcellException(ErrorCode.MALFORMED_JSON, "body is not a valid " + type.getSimpleName(), e);
    }
  }

  /**
   * Decodes a request whose {@link Bulk} value the receiver passes on as bytes (a file's content on its
   * way into a sandbox): the value comes with that component null and its bytes beside it, as a
   * {@link BulkMessage}. A frame's bytes are copied out once and never decoded (a text's UTF-8 is not
   * checked here); a small message that carried its text in the JSON has it encoded as a frame would
   * carry it. Null bytes: the request carried none.
   */
  public <T> BulkMessage<T> decodeBulk(byte[] data, Class<T> type) {
    BulkField bulk = BulkField.of(type).orElseThrow(() -> new IllegalArgumentException(type.getSimpleName() + " has no bulk field"));
    try {
      if (data == null || data.length == 0 || data[0] != FRAMED) {
        T value = decode(data, type);
        Object inline = bulk.large(value, 0);
        byte[] bytes = inline instanceof String text ? utf8(text) : (byte[]) inline;
        return new BulkMessage<>(type.cast(bulk.without(value)), bytes);
      }
      int length = frameJsonLength(data);
      T value = mapper.readValue(data, HEADER, length, type);
      if (value == null) {
        throw new IOException("frame holds no JSON object");
      }
      // The frame's bytes stand for the bulk value, whatever the JSON said of it (as decode does).
      return new BulkMessage<>(type.cast(bulk.without(value)), Arrays.copyOfRange(data, HEADER + length, data.length));
    } catch (IOException | IllegalArgumentException e) {
      throw new WorkcellException(ErrorCode.MALFORMED_JSON, "body is not a valid " + type.getSimpleName(), e);
    } catch (ReflectiveOperationException e) {
      throw new WorkcellException(ErrorCode.INTERNAL, "cannot decode " + type.getSimpleName(), e);
    }
  }

  /** A text's UTF-8 bytes exactly as a frame would carry them (see {@link #framed(byte[], String)}). */
  private static byte[] utf8(String text) {
    byte[] out = new byte[Math.toIntExact(Utf8.length(text))];
    encodeInto(text, ByteBuffer.wrap(out));
    return out;
  }

  private static int frameJsonLength(byte[] data) throws IOException {
    int length = data.length < HEADER ? -1 : ByteBuffer.wrap(data, 1, 4).getInt();
    if (length < 0 || length > data.length - HEADER) {
      throw new IOException("frame header does not fit the body");
    }
    return length;
  }

  private static byte[] framed(byte[] json, byte[] raw) {
    byte[] frame = frame(json, raw.length);
    System.arraycopy(raw, 0, frame, HEADER + json.length, raw.length);
    return frame;
  }

  /**
   * The text is encoded straight into the frame, without a byte[] of its own first. A lone
   * surrogate becomes U+FFFD, three bytes, as {@link Utf8#length} counts it.
   */
  private static byte[] framed(byte[] json, String text) {
    byte[] frame = frame(json, Math.toIntExact(Utf8.length(text)));
    encodeInto(text, ByteBuffer.wrap(frame, HEADER + json.length, frame.length - HEADER - json.length));
    return frame;
  }

  /** Encodes all of {@code text} into exactly the {@code out} that {@link Utf8#length} sized. */
  private static void encodeInto(String text, ByteBuffer out) {
    CharsetEncoder encoder = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE).replaceWith(REPLACEMENT);
    CharBuffer in = CharBuffer.wrap(text);
    encoder.encode(in, out, true);
    encoder.flush(out);
    if (in.hasRemaining() || out.hasRemaining()) {
      throw new IllegalStateException("UTF-8 length of a bulk text miscounted");
    }
  }

  private static byte[] frame(byte[] json, int rawLength) {
    byte[] frame = new byte[HEADER + json.length + rawLength];
    frame[0] = FRAMED;
    ByteBuffer.wrap(frame, 1, 4).putInt(json.length);
    System.arraycopy(json, 0, frame, HEADER, json.length);
    return frame;
  }

  private <T> T decodeFramed(byte[] data, Class<T> type) throws IOException {
    BulkField bulk = BulkField.of(type).orElseThrow(() -> new IOException(type.getSimpleName() + " has no bulk field"));
    int length = frameJsonLength(data);
    JsonNode json = mapper.readTree(data, HEADER, length);
    if (!(json instanceof ObjectNode node)) {
      throw new IOException("frame holds no JSON object");
    }
    int from = HEADER + length;
    node.set(bulk.name(), bulk.text()
        ? TextNode.valueOf(new String(data, from, data.length - from, StandardCharsets.UTF_8))
        : BinaryNode.valueOf(Arrays.copyOfRange(data, from, data.length)));
    return mapper.treeToValue(node, type);
  }
}
