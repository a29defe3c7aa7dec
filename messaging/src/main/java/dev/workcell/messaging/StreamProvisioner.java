package dev.workcell.messaging;

import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Streams.StreamSpec;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.quarkus.logging.Log;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/** Creates or updates the contract's JetStream streams at every (re)connect; idempotent. */
@Startup
@ApplicationScoped
public class StreamProvisioner {

  private static final int STREAM_NOT_FOUND = 10059;

  private final AtomicBoolean ready = new AtomicBoolean();

  public StreamProvisioner(NatsConnection nats, NatsSettings settings) {
    if (settings.provisionStreams()) {
      nats.whenConnected(this::provision);
    } else {
      ready.set(true);
    }
  }

  /** True once every stream of the contract is known to exist with its configuration. */
  public boolean ready() {
    return ready.get();
  }

  void provision(Connection connection) {
    try {
      JetStreamManagement management = connection.jetStreamManagement();
      for (StreamSpec spec : Streams.ALL) {
        ensure(management, spec);
      }
      ready.set(true);
    } catch (IOException | JetStreamApiException e) {
      ready.set(false);
      Log.errorf("jetstream streams not provisioned: %s", e.getMessage());
    }
  }

  private static void ensure(JetStreamManagement management, StreamSpec spec) throws IOException, JetStreamApiException {
    StreamConfiguration config = StreamConfiguration.builder()
        .name(spec.name())
        .subjects(spec.subjects())
        .retentionPolicy(spec.retention() == Streams.Retention.WORK_QUEUE ? RetentionPolicy.WorkQueue : RetentionPolicy.Limits)
        .storageType(StorageType.File)
        .maxAge(spec.maxAge())
        .build();
    try {
      management.getStreamInfo(spec.name());
      management.updateStream(config);
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != STREAM_NOT_FOUND) {
        throw e;
      }
      management.addStream(config);
      Log.infof("jetstream stream %s created", spec.name());
    }
  }
}
