package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;
import dev.workcell.sandbox.config.DockerSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/**
 * A second client for long-lived exec attachments. It has no response timeout: celld is silent
 * while idle, and the API client's read timeout would cut its stream after a minute.
 */
@ApplicationScoped
public class DockerStreamsClient {

  @Produces
  @ApplicationScoped
  @Streaming
  DockerClient streams(DockerSettings settings) {
    return create(settings.host());
  }

  public static DockerClient create(String host) {
    var config = DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(host).build();
    var http = new ZerodepDockerHttpClient.Builder()
        .dockerHost(URI.create(host))
        .maxConnections(256)
        .connectionTimeout(Duration.ofSeconds(3))
        .build();
    return DockerClientImpl.getInstance(config, http);
  }

  void close(@Disposes @Streaming DockerClient client) throws IOException {
    client.close();
  }
}
