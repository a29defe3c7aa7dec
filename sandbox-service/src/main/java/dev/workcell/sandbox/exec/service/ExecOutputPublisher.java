package dev.workcell.sandbox.exec.service;

import dev.workcell.contracts.sandbox.ExecOutput;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.sandbox.celld.client.CelldConnection.OutputSink;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Publishes a running command's output live on {@code workcell.sandbox.exec.output.<execId>} (core
 * NATS: fire and forget, never blocking celld's reader). Nobody listening costs one publish per chunk.
 */
@ApplicationScoped
public class ExecOutputPublisher {

  private final NatsConnection nats;
  private final MessageCodec codec;

  public ExecOutputPublisher(NatsConnection nats, MessageCodec codec) {
    this.nats = nats;
    this.codec = codec;
  }

  public OutputSink sinkFor(String execId) {
    String subject = SandboxSubjects.EXEC_OUTPUT.subject(execId);
    return (stream, data) -> {
      if (nats.connected()) {
        nats.connection().publish(subject, codec.encode(new ExecOutput(execId, stream, data)));
      }
    };
  }
}
