package dev.workcell.sandbox.celld.service;

import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes one stream's output on its subject (core NATS, never blocking celld's reader thread it
 * is called on), each chunk numbered in order so the receiver sees a gap (a slow consumer's dropped
 * message) and closes rather than pass on a corrupted stream.
 */
public final class OrderedPublisher {

  /** Makes the message of one chunk from its sequence number and bytes (null: the last one). */
  @FunctionalInterface
  public interface Chunks {
    Object chunk(long seq, byte[] data);
  }

  private final NatsConnection nats;
  private final MessageCodec codec;
  private final String subject;
  private final Chunks chunks;
  private final AtomicLong seq = new AtomicLong();

  public OrderedPublisher(NatsConnection nats, MessageCodec codec, String subject, Chunks chunks) {
    this.nats = nats;
    this.codec = codec;
    this.subject = subject;
    this.chunks = chunks;
  }

  /** One chunk of output, in the order celld delivered it. */
  public void output(byte[] data) {
    publish(chunks.chunk(seq.getAndIncrement(), data));
  }

  /** The stream's last message, made by {@code last} from its sequence number. */
  public void last(Chunks last) {
    publish(last.chunk(seq.getAndIncrement(), null));
  }

  private void publish(Object chunk) {
    if (nats.connected()) {
      nats.connection().publish(subject, codec.encode(chunk));
    }
  }
}
