package dev.workcell.messaging;

import dev.workcell.contracts.Bulk;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Optional;

/**
 * The {@link Bulk} component of a record type (a file's content, a chunk's bytes), and how to take it
 * out of a value: the codec frames it raw after the rest's JSON, and the gateway reads it out of a
 * request body the same way. Looked up once per type.
 */
public final class BulkField {

  private static final ClassValue<Optional<BulkField>> BY_TYPE = new ClassValue<>() {
    @Override
    protected Optional<BulkField> computeValue(Class<?> type) {
      return find(type);
    }
  };

  private final RecordComponent[] components;
  private final int index;
  private final Constructor<?> canonical;

  private BulkField(RecordComponent[] components, int index, Constructor<?> canonical) {
    this.components = components;
    this.index = index;
    this.canonical = canonical;
  }

  /** The bulk component of {@code type}, empty when it is no record or has none. */
  public static Optional<BulkField> of(Class<?> type) {
    return BY_TYPE.get(type);
  }

  private static Optional<BulkField> find(Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    if (components == null) {
      return Optional.empty();
    }
    for (int i = 0; i < components.length; i++) {
      if (components[i].isAnnotationPresent(Bulk.class)) {
        Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        try {
          Constructor<?> canonical = type.getDeclaredConstructor(types);
          canonical.setAccessible(true);
          return Optional.of(new BulkField(components, i, canonical));
        } catch (NoSuchMethodException e) {
          throw new IllegalStateException("record without canonical constructor: " + type, e);
        }
      }
    }
    return Optional.empty();
  }

  public String name() {
    return components[index].getName();
  }

  /** Text (a String component) rather than bytes. */
  public boolean text() {
    return components[index].getType() == String.class;
  }

  /** The value's bulk text or bytes when they are at least {@code from} long, else null. */
  Object large(Object value, int from) throws ReflectiveOperationException {
    Object raw = components[index].getAccessor().invoke(value);
    if (raw instanceof String text && text.length() >= from) {
      return text;
    }
    return raw instanceof byte[] bytes && bytes.length >= from ? bytes : null;
  }

  /** A copy of {@code value} with the bulk component null: the JSON part of the frame. */
  Object without(Object value) throws ReflectiveOperationException {
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      args[i] = i == index ? null : components[i].getAccessor().invoke(value);
    }
    return canonical.newInstance(args);
  }
}
