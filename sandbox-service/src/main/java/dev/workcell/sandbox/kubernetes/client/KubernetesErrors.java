package dev.workcell.sandbox.kubernetes.client;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** Turns fabric8 failures into stable error codes; the API server's own text stays in the message. */
final class KubernetesErrors {

  private KubernetesErrors() {}

  static WorkcellException translate(String action, RuntimeException e) {
    if (e instanceof WorkcellException known) {
      return known;
    }
    if (e instanceof KubernetesClientException api && api.getCode() > 0) {
      return new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE,
          "the Kubernetes API server refused to " + action + " (" + api.getCode() + "): " + clip(api.getMessage()), e);
    }
    return new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE,
        "the Kubernetes API server was unreachable while trying to " + action + ": " + clip(e.getMessage()), e);
  }

  private static String clip(String text) {
    String value = String.valueOf(text).strip();
    return value.length() > 300 ? value.substring(0, 300) + "…" : value;
  }
}
