package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.exception.DockerException;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;

/** Turns docker-java failures into stable error codes; the engine's own text stays in the message. */
final class DockerErrors {

  private DockerErrors() {}

  static WorkcellException translate(String action, RuntimeException e) {
    if (e instanceof WorkcellException known) {
      return known;
    }
    if (e instanceof DockerException docker) {
      return new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE,
          "docker engine refused to " + action + " (" + docker.getHttpStatus() + "): " + clip(docker.getMessage()), e);
    }
    // Transport failures (dead socket, refused connection) surface as plain runtime exceptions.
    return new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "docker engine unreachable while trying to " + action + ": " + clip(e.getMessage()), e);
  }

  private static String clip(String text) {
    String value = String.valueOf(text).strip();
    return value.length() > 300 ? value.substring(0, 300) + "…" : value;
  }
}
