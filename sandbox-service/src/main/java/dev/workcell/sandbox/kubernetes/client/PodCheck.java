package dev.workcell.sandbox.kubernetes.client;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Compares a Pod as the API server returns it with the Pod the blueprint would write, property by
 * property, security context included; every difference is named, so a log line says what drifted.
 * Quantities are compared by value (the API server writes {@code 1000m} back as {@code 1}), and an
 * unset boolean the API server defaults to false counts as false.
 */
final class PodCheck {

  private record Property(String name, Function<Pod, Object> read) {}

  private static final List<Property> PROPERTIES = List.of(
      new Property("annotations", pod -> new TreeMap<>(orEmpty(pod.getMetadata().getAnnotations()))),
      new Property("automountServiceAccountToken", pod -> pod.getSpec().getAutomountServiceAccountToken()),
      new Property("enableServiceLinks", pod -> pod.getSpec().getEnableServiceLinks()),
      new Property("hostNetwork", pod -> isTrue(pod.getSpec().getHostNetwork())),
      new Property("hostPID", pod -> isTrue(pod.getSpec().getHostPID())),
      new Property("hostIPC", pod -> isTrue(pod.getSpec().getHostIPC())),
      new Property("shareProcessNamespace", pod -> isTrue(pod.getSpec().getShareProcessNamespace())),
      new Property("restartPolicy", pod -> pod.getSpec().getRestartPolicy()),
      new Property("dnsNameservers", pod -> pod.getSpec().getDnsConfig() == null ? List.of() : orEmpty(pod.getSpec().getDnsConfig().getNameservers())),
      new Property("pod runAsUser", pod -> podSecurity(pod).map(PodSecurityContext::getRunAsUser).orElse(null)),
      new Property("pod runAsGroup", pod -> podSecurity(pod).map(PodSecurityContext::getRunAsGroup).orElse(null)),
      new Property("pod runAsNonRoot", pod -> podSecurity(pod).map(PodSecurityContext::getRunAsNonRoot).orElse(null)),
      new Property("pod fsGroup", pod -> podSecurity(pod).map(PodSecurityContext::getFsGroup).orElse(null)),
      new Property("pod seccompProfile", pod -> podSecurity(pod).map(PodSecurityContext::getSeccompProfile).map(PodCheck::seccomp).orElse(null)),
      new Property("init containers", pod -> orEmpty(pod.getSpec().getInitContainers()).stream().map(Container::getName).toList()),
      new Property("containers", pod -> orEmpty(pod.getSpec().getContainers()).stream().map(Container::getName).toList()),
      new Property("volumes", pod -> orEmpty(pod.getSpec().getVolumes()).stream().map(PodCheck::volume).sorted().toList()));

  /** Compared on every container, init container included (see {@link #container}). */
  private static final List<String> CONTAINER_PROPERTIES = List.of("image", "command", "args", "workingDir", "env", "ports",
      "volumeMounts", "limits", "requests", "runAsUser", "runAsGroup", "runAsNonRoot", "readOnlyRootFilesystem",
      "allowPrivilegeEscalation", "privileged", "capabilities", "seccompProfile");

  private PodCheck() {}

  /** Every way {@code actual} differs from {@code expected}; empty when none. */
  static List<String> drift(Pod expected, Pod actual) {
    List<String> drift = new ArrayList<>();
    if (actual.getSpec() == null || actual.getMetadata() == null) {
      return List.of("the API server returned no Pod spec");
    }
    Map<String, String> labels = orEmpty(actual.getMetadata().getLabels());
    orEmpty(expected.getMetadata().getLabels()).forEach((key, value) -> expect(drift, "label " + key, value, labels.get(key)));
    for (Property property : PROPERTIES) {
      expect(drift, property.name(), property.read().apply(expected), property.read().apply(actual));
    }
    for (Container wanted : concat(expected.getSpec())) {
      Optional<Container> found = concat(actual.getSpec()).stream().filter(c -> wanted.getName().equals(c.getName())).findFirst();
      if (found.isEmpty()) {
        continue; // named by "containers" above
      }
      for (String property : CONTAINER_PROPERTIES) {
        expect(drift, wanted.getName() + " " + property, container(property, wanted), container(property, found.get()));
      }
    }
    return drift;
  }

  private static Object container(String property, Container c) {
    Optional<SecurityContext> security = Optional.ofNullable(c.getSecurityContext());
    return switch (property) {
      case "image" -> c.getImage();
      case "command" -> orEmpty(c.getCommand());
      case "args" -> orEmpty(c.getArgs());
      case "workingDir" -> c.getWorkingDir();
      case "env" -> orEmpty(c.getEnv()).stream().map(e -> e.getName() + "=" + e.getValue()).toList();
      case "ports" -> orEmpty(c.getPorts()).stream().map(PodCheck::port).toList();
      case "volumeMounts" -> orEmpty(c.getVolumeMounts()).stream()
          .map(m -> m.getName() + "->" + m.getMountPath() + (isTrue(m.getReadOnly()) ? ":ro" : ":rw")).sorted().toList();
      case "limits" -> c.getResources() == null ? Map.of() : quantities(c.getResources().getLimits());
      case "requests" -> c.getResources() == null ? Map.of() : quantities(c.getResources().getRequests());
      case "runAsUser" -> security.map(SecurityContext::getRunAsUser).orElse(null);
      case "runAsGroup" -> security.map(SecurityContext::getRunAsGroup).orElse(null);
      case "runAsNonRoot" -> security.map(SecurityContext::getRunAsNonRoot).orElse(null);
      case "readOnlyRootFilesystem" -> security.map(SecurityContext::getReadOnlyRootFilesystem).orElse(null);
      case "allowPrivilegeEscalation" -> security.map(SecurityContext::getAllowPrivilegeEscalation).orElse(null);
      case "privileged" -> isTrue(security.map(SecurityContext::getPrivileged).orElse(null));
      case "capabilities" -> security.map(SecurityContext::getCapabilities).map(PodCheck::capabilities).orElse(null);
      case "seccompProfile" -> security.map(SecurityContext::getSeccompProfile).map(PodCheck::seccomp).orElse(null);
      default -> throw new IllegalArgumentException(property);
    };
  }

  private static void expect(List<String> drift, String property, Object expected, Object actual) {
    if (!Objects.equals(expected, actual)) {
      drift.add(property + ": expected " + expected + ", found " + actual);
    }
  }

  private static Optional<PodSecurityContext> podSecurity(Pod pod) {
    return Optional.ofNullable(pod.getSpec().getSecurityContext());
  }

  private static List<Container> concat(PodSpec spec) {
    List<Container> all = new ArrayList<>(orEmpty(spec.getInitContainers()));
    all.addAll(orEmpty(spec.getContainers()));
    return all;
  }

  private static String seccomp(io.fabric8.kubernetes.api.model.SeccompProfile profile) {
    return profile.getType() + (profile.getLocalhostProfile() == null ? "" : "/" + profile.getLocalhostProfile());
  }

  private static String capabilities(Capabilities caps) {
    return "drop=" + orEmpty(caps.getDrop()).stream().sorted().toList() + " add=" + orEmpty(caps.getAdd()).stream().sorted().toList();
  }

  private static String port(ContainerPort port) {
    return port.getContainerPort() + "/" + (port.getProtocol() == null ? "TCP" : port.getProtocol()) + " hostPort=" + port.getHostPort();
  }

  /** A volume by what backs it; a hostPath or any other source shows up as drift. */
  private static String volume(Volume v) {
    if (v.getPersistentVolumeClaim() != null) {
      return v.getName() + "=pvc:" + v.getPersistentVolumeClaim().getClaimName() + (isTrue(v.getPersistentVolumeClaim().getReadOnly()) ? ":ro" : "");
    }
    if (v.getEmptyDir() != null) {
      return v.getName() + "=emptyDir:" + v.getEmptyDir().getMedium() + ":" + bytes(v.getEmptyDir().getSizeLimit());
    }
    return v.getName() + "=other";
  }

  private static Map<String, String> quantities(Map<String, Quantity> map) {
    Map<String, String> out = new TreeMap<>();
    orEmpty(map).forEach((key, value) -> out.put(key, bytes(value)));
    return out;
  }

  /** A quantity as a plain number (bytes, or cores): equal values compare equal whatever their format. */
  private static String bytes(Quantity quantity) {
    return quantity == null ? null : Quantity.getAmountInBytes(quantity).stripTrailingZeros().toPlainString();
  }

  private static boolean isTrue(Boolean value) {
    return Boolean.TRUE.equals(value);
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }

  private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }
}
