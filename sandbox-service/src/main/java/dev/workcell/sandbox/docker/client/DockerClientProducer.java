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

/** The one Docker client of the suite; nothing else in Workcell holds Docker credentials. */
@ApplicationScoped
public class DockerClientProducer {

  @Produces
  @ApplicationScoped
  DockerClient dockerClient(DockerSettings settings) {
    var config = DefaultDockerClientConfig.createDefaultConfigBuilder().withDockerHost(settings.host()).build();
    var http = new ZerodepDockerHttpClient.Builder()
        .dockerHost(URI.create(settings.host()))
        .maxConnections(64)
        .connectionTimeout(Duration.ofSeconds(3))
        .responseTimeout(Duration.ofSeconds(60))
        .build();
    return DockerClientImpl.getInstance(config, http);
  }

  void close(@Disposes DockerClient client) throws IOException {
    client.close();
  }
}
