package dev.workcell.gateway.file.service;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workcell.contracts.Bulk;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.messaging.BulkField;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads a JSON request body whose {@link Bulk} text (a file's content, up to 2 MB) comes out as
 * UTF-8 bytes, ready for NATS. Jackson would decode a 2 MB string through about 4 MB of char
 * buffers and two more copies, and the text would then be encoded back to bytes: about 6 MB of
 * garbage per 2 MB saved, most of it alive long enough to reach the old generation. The rest of
 * the body is read by Jackson as usual, so every other field behaves as before.
 */
@ApplicationScoped
public class BulkBodyReader {

  /** The body's record with its bulk text taken out, and that text as UTF-8 (null when absent or null). */
  public record BulkBody<T>(T value, byte[] text) {}

  private final ObjectMapper mapper;

  public BulkBodyReader(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** The body as {@code type}, or null for an empty body or JSON {@code null}. */
  public <T> BulkBody<T> read(byte[] body, Class<T> type) {
    String field = BulkField.of(type).filter(BulkField::text).map(BulkField::name)
        .orElseThrow(() -> new IllegalArgumentException(type + " has no @Bulk String component"));
    try (JsonParser parser = mapper.createParser(body == null ? new byte[0] : body)) {
      JsonToken first = parser.nextToken();
      if (first == null || first == JsonToken.VALUE_NULL) {
        return null;
      }
      if (first != JsonToken.START_OBJECT) {
        throw new WorkcellException(ErrorCode.MALFORMED_JSON, "the body must be a JSON object");
      }
      ObjectNode rest = mapper.createObjectNode();
      byte[] text = null;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if (name.equals(field) && value == JsonToken.VALUE_STRING) {
          // Jackson has not read the string yet (it skips it on the next token): only its position.
          text = JsonStringBytes.decode(body, Math.toIntExact(parser.currentTokenLocation().getByteOffset()));
          rest.remove(name);
        } else {
          rest.set(name, value == JsonToken.VALUE_NULL ? NullNode.getInstance() : mapper.readTree(parser));
          if (name.equals(field)) {
            text = null;
          }
        }
      }
      T value = mapper.treeToValue(rest, type);
      if (text == null && rest.hasNonNull(field)) {
        text = rest.get(field).asText().getBytes(StandardCharsets.UTF_8); // a number or boolean, coerced as before
      }
      return new BulkBody<>(value, text);
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.MALFORMED_JSON, "the body is not valid JSON for this operation");
    }
  }
}
