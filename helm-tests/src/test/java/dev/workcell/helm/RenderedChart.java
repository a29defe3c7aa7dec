package dev.workcell.helm;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** helm/workcell rendered by helm-java with some --set values, every document read as a typed Kubernetes object. */
record RenderedChart(List<HasMetadata> objects) {

  static final Path CHART = Path.of("..", "helm", "workcell").toAbsolutePath().normalize();
  static final String RELEASE = "wc";
  static final String NAMESPACE = "workcell";

  /** Renders with {@code values} (dotted keys; list values as lists), given as a values file as an installer would. */
  static RenderedChart render(Map<String, ?> values) {
    Map<String, Object> tree = new LinkedHashMap<>();
    // helm-java's template asks a cluster for lookup; there is none here (helm/README.md).
    put(tree, new String[] {"secrets", "reuseInstalled"}, false);
    values.forEach((key, value) -> put(tree, key.split("\\."), value));
    Path file;
    try {
      file = Files.createTempFile("values", ".yaml");
      Files.writeString(file, Serialization.asYaml(tree));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String rendered = new Helm(CHART).template().withName(RELEASE).withNamespace(NAMESPACE).withValuesFile(file).call();
    List<HasMetadata> objects = new ArrayList<>();
    for (String document : rendered.split("(?m)^---\\s*$")) {
      if (document.lines().anyMatch(line -> !line.isBlank() && !line.startsWith("#"))) {
        // Throws on an unknown kind or a field of the wrong type: every document must be a real object.
        objects.add(Serialization.unmarshal(document, HasMetadata.class));
      }
    }
    return new RenderedChart(objects);
  }

  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> tree, String[] path, Object value) {
    Map<String, Object> node = tree;
    for (int i = 0; i < path.length - 1; i++) {
      node = (Map<String, Object>) node.computeIfAbsent(path[i], k -> new LinkedHashMap<String, Object>());
    }
    node.put(path[path.length - 1], value);
  }

  <T extends HasMetadata> List<T> all(Class<T> kind) {
    return objects.stream().filter(kind::isInstance).map(kind::cast).toList();
  }

  <T extends HasMetadata> Optional<T> named(Class<T> kind, String name) {
    return all(kind).stream().filter(object -> object.getMetadata().getName().equals(name)).findFirst();
  }

  /** Every Pod template, by the name of the object that holds it. */
  Map<String, PodTemplateSpec> podTemplates() {
    Map<String, PodTemplateSpec> templates = new LinkedHashMap<>();
    all(Deployment.class).forEach(d -> templates.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
    all(StatefulSet.class).forEach(s -> templates.put(s.getMetadata().getName(), s.getSpec().getTemplate()));
    all(CronJob.class).forEach(c -> templates.put(c.getMetadata().getName(),
        c.getSpec().getJobTemplate().getSpec().getTemplate()));
    return templates;
  }
}
