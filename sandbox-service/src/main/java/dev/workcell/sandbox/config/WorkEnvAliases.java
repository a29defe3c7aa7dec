package dev.workcell.sandbox.config;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Seed 004's environment names as aliases of the {@code workcell.sandbox.*} properties. It ranks
 * above application.properties (250) and below the environment (300), so the canonical
 * {@code WORKCELL_SANDBOX_*} variable still wins over its alias.
 */
public class WorkEnvAliases implements ConfigSource {

  /** property → environment alias. */
  public static final Map<String, String> ALIASES = Map.ofEntries(
      Map.entry("workcell.sandbox.backend", "WORK_RUNTIME_BACKEND"),
      Map.entry("workcell.sandbox.runtime-image", "WORK_RUNTIME_IMAGE"),
      Map.entry("workcell.sandbox.command-timeout-ms", "WORK_COMMAND_TIMEOUT_MS"),
      Map.entry("workcell.sandbox.max-output-chars", "WORK_MAX_OUTPUT_CHARS"),
      Map.entry("workcell.sandbox.memory-limit", "WORK_MEMORY_LIMIT"),
      Map.entry("workcell.sandbox.cpu-limit", "WORK_CPU_LIMIT"),
      Map.entry("workcell.sandbox.pids-limit", "WORK_PIDS_LIMIT"),
      Map.entry("workcell.sandbox.workspace-size", "WORK_WORKSPACE_SIZE"),
      Map.entry("workcell.sandbox.preview-port", "WORK_PREVIEW_PORT"),
      Map.entry("workcell.sandbox.preview-bind", "WORK_PREVIEW_BIND"),
      Map.entry("workcell.sandbox.docker-published-host", "WORK_DOCKER_PUBLISHED_HOST"),
      Map.entry("workcell.sandbox.network-name", "WORK_NETWORK_NAME"),
      Map.entry("workcell.sandbox.runtime-dns", "WORK_RUNTIME_DNS"),
      Map.entry("workcell.sandbox.runtime-idle-timeout-ms", "WORK_RUNTIME_IDLE_TIMEOUT_MS"),
      Map.entry("workcell.sandbox.max-active-runtimes-global", "WORK_MAX_ACTIVE_RUNTIMES_GLOBAL"),
      Map.entry("workcell.sandbox.max-active-runtimes-per-user", "WORK_MAX_ACTIVE_RUNTIMES_PER_USER"),
      Map.entry("workcell.sandbox.host-folders.enabled", "WORK_HOST_WORKSPACES_ENABLED"),
      Map.entry("workcell.sandbox.host-folders.roots", "WORK_HOST_WORKSPACE_ROOTS"),
      Map.entry("workcell.kubernetes.namespace", "WORK_K8S_NAMESPACE"),
      Map.entry("workcell.kubernetes.storage-class", "WORK_K8S_STORAGE_CLASS"),
      Map.entry("workcell.kubernetes.pod-ready-timeout-ms", "WORK_K8S_POD_READY_TIMEOUT_MS"),
      Map.entry("workcell.kubernetes.pod-gone-timeout-ms", "WORK_K8S_POD_GONE_TIMEOUT_MS"));

  /**
   * Seed 004 names the workspace size of the Kubernetes backend WORK_K8S_WORKSPACE_SIZE: a Pod's PVC is
   * its workspace, so it is the same property, read from that name first when the backend is kubernetes.
   */
  private static final String K8S_WORKSPACE_SIZE = "WORK_K8S_WORKSPACE_SIZE";

  private final Function<String, String> environment;

  public WorkEnvAliases() {
    this(System::getenv);
  }

  WorkEnvAliases(Function<String, String> environment) {
    this.environment = environment;
  }

  @Override
  public Set<String> getPropertyNames() {
    return ALIASES.keySet().stream().filter(name -> getValue(name) != null).collect(Collectors.toSet());
  }

  @Override
  public String getValue(String propertyName) {
    if ("workcell.sandbox.workspace-size".equals(propertyName) && kubernetes()) {
      String k8s = environment.apply(K8S_WORKSPACE_SIZE);
      if (k8s != null && !k8s.isBlank()) {
        return k8s;
      }
    }
    String alias = ALIASES.get(propertyName);
    String value = alias == null ? null : environment.apply(alias);
    // Seed 004 separates host-folder roots with ':' (as PATH does); the property's list separator is ','.
    return value != null && "workcell.sandbox.host-folders.roots".equals(propertyName) ? value.replace(':', ',') : value;
  }

  private boolean kubernetes() {
    String canonical = environment.apply("WORKCELL_SANDBOX_BACKEND");
    return "kubernetes".equals(canonical != null ? canonical : environment.apply("WORK_RUNTIME_BACKEND"));
  }

  @Override
  public int getOrdinal() {
    return 275;
  }

  @Override
  public String getName() {
    return "WORK_* environment aliases";
  }

  /** The alias to name in a message about {@code property}, or the property itself. */
  public static String describe(String property) {
    String alias = ALIASES.get(property);
    return alias == null ? property : property + " (" + alias + ")";
  }
}
