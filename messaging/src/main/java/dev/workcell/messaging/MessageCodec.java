package dev.workcell.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;

/** JSON codec for the contract records. A body that does not decode is the sender's error. */
@ApplicationScoped
public class MessageCodec {

  private final ObjectMapper mapper;

  public MessageCodec(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  public byte[] encode(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new WorkcellException(ErrorCode.INTERNAL, "cannot encode " + value.getClass().getSimpleName(), e);
    }
  }

  public <T> T decode(byte[] data, Class<T> type) {
    if (type == Void.class) {
      return null;
    }
    try {
      T value = mapper.readValue(data == null || data.length == 0 ? "null".getBytes() : data, type);
      if (value == null) {
        throw new WorkcellException(ErrorCode.MALFORMED_JSON, "empty body, expected " + type.getSimpleName());
      }
      return value;
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.MALFORMED_JSON, "body is not a valid " + type.getSimpleName(), e);
    }
  }
}
