package dev.workcell.messaging;

/**
 * A message whose {@link dev.workcell.contracts.Bulk} text is already UTF-8 bytes (read straight
 * from an HTTP body): {@code value} carries that component as null and {@code text} carries it, so
 * the text never becomes a Java string on its way to NATS. Always sent as a frame.
 */
public record BulkMessage<T>(T value, byte[] text) {}
