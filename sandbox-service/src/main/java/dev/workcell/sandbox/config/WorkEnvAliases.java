package dev.workcell.sandbox.config;

import io.smallrye.config.EnvConfigSource;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Seed 004's environment names as aliases of the {@code workcell.sandbox.*} properties. It ranks
 * above application.properties (250) and below the environment (300), so the canonical
 * {@code WORKCELL_SANDBOX_*} variable still wins over its alias.
 *
 * <p>It is an {@link EnvConfigSource} because it is the environment: Quarkus records the values of
 * other sources seen during the build as the built application's defaults, so a plain ConfigSource
 * turned a WORK_HOST_WORKSPACES_ENABLED=true of the shell that ran Maven into "on by default" for
 * every later start of that build.
 */
public class WorkEnvAliases extends EnvConfigSource {

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

  public WorkEnvAliases() {
    this(System::getenv);
  }

  WorkEnvAliases(Function<String, String> environment) {
    super(aliased(environment), 275);
  }

  /** property → the value of its alias, for the aliases that are set. */
  private static Map<String, String> aliased(Function<String, String> environment) {
    Map<String, String> values = new HashMap<>();
    ALIASES.forEach((property, alias) -> {
      String value = environment.apply(alias);
      if (value != null) {
        // Seed 004 separates host-folder roots with ':' (as PATH does); the property's list separator is ','.
        values.put(property, "workcell.sandbox.host-folders.roots".equals(property) ? value.replace(':', ',') : value);
      }
    });
    String k8sSize = environment.apply(K8S_WORKSPACE_SIZE);
    if (kubernetes(environment) && k8sSize != null && !k8sSize.isBlank()) {
      values.put("workcell.sandbox.workspace-size", k8sSize);
    }
    return values;
  }

  private static boolean kubernetes(Function<String, String> environment) {
    String canonical = environment.apply("WORKCELL_SANDBOX_BACKEND");
    return "kubernetes".equals(canonical != null ? canonical : environment.apply("WORK_RUNTIME_BACKEND"));
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
