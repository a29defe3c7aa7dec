package dev.workcell.sandbox.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** How sandbox-service reaches the Docker engine. */
@ConfigMapping(prefix = "workcell.docker")
public interface DockerSettings {

  /** The engine endpoint: {@code unix:///var/run/docker.sock} or plain {@code tcp://} to a socket proxy (DOCKER_HOST). */
  @WithName("host")
  @WithDefault("unix:///var/run/docker.sock")
  String host();
}
