package dev.workcell.sandbox.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * Sandbox runtime settings. Seed 004's {@code WORK_*} names are environment aliases of these
 * properties ({@link WorkEnvAliases}); {@link SandboxSettingsValidator} refuses start on bad values.
 */
@ConfigMapping(prefix = "workcell.sandbox")
public interface SandboxSettings {

  /** The default {@link #backend()}. */
  String DOCKER = "docker";
  /** Sandboxes as Pods and PVCs in a namespace ({@code dev.workcell.sandbox.kubernetes}). */
  String KUBERNETES = "kubernetes";

  /** The instance of a single deployment (the dev stack's too): the one whose homes have plain names. */
  String DEFAULT_INSTANCE = "default";

  /**
   * Where sandboxes run (WORK_RUNTIME_BACKEND): {@code docker} (the engine at DOCKER_HOST) or
   * {@code kubernetes} (Pods and PVCs in WORK_K8S_NAMESPACE, see KubernetesSettings).
   */
  @WithDefault(DOCKER)
  String backend();

  /** True when sandboxes are Pods. */
  default boolean kubernetes() {
    return KUBERNETES.equals(backend());
  }

  /**
   * Image of task sandboxes (WORK_RUNTIME_IMAGE): any image with {@code sleep} and {@code /bin/sh}
   * (bash preferred); celld reaches it from a read-only volume, see {@link Celld#image()}.
   */
  @WithDefault("workcell/sandbox:dev")
  String runtimeImage();

  /** Default command timeout in milliseconds when a request names none (WORK_COMMAND_TIMEOUT_MS). */
  @WithDefault("120000")
  long commandTimeoutMs();

  /**
   * The most output collected (WORK_MAX_OUTPUT_CHARS): a command's stdout and stderr together, first
   * and last halves kept; a search reply's paths and lines.
   */
  @WithDefault("50000")
  int maxOutputChars();

  /** Memory per sandbox, swap pinned to it: {@code 2g}, {@code 512m}, bytes (WORK_MEMORY_LIMIT). */
  @WithDefault("2g")
  String memoryLimit();

  /** CPU cores per sandbox, decimals allowed (WORK_CPU_LIMIT). */
  @WithDefault("2")
  String cpuLimit();

  /**
   * CPU weight of every sandbox (cgroup cpu shares, Docker's {@code --cpu-shares}; 1024 is Docker's
   * default): under contention N busy sandboxes get about 1/N of the host each. The cpu limit above is
   * only a ceiling, applied when it is below the host's cores.
   */
  @WithDefault("1024")
  int cpuShares();

  /**
   * Share of the engine's memory (Docker {@code info} MemTotal) the memory limits of running sandboxes,
   * homes included, may add up to; past it the least recently used idle sandbox is stopped or the start
   * is refused ({@code runtime_capacity}). Ignored when {@link #memoryBudget()} is set.
   */
  @WithDefault("0.75")
  double memoryShare();

  /** The same budget as an absolute size ({@code 18g}), instead of a share of the engine's memory. */
  Optional<String> memoryBudget();

  /**
   * How long a running sandbox must have been quiet (nothing in flight, no hold, no background
   * process) before another's start may stop it, for the memory budget or a home slot. A sandbox
   * used more recently is in use: one user's burst of starts (one client under many Open Terminal
   * user ids) is refused with 429 instead of stopping the sandbox someone is working in. 0: at once.
   * Short on purpose: with 60 s, users arriving one after another on a full instance (the stack
   * checks' terminals) waited a minute for a slot their predecessors no longer used.
   */
  @WithDefault("10s")
  Duration evictionMinIdle();

  /** Processes per sandbox (WORK_PIDS_LIMIT). */
  @WithDefault("256")
  long pidsLimit();

  /** The port a preview must listen on inside the sandbox (WORK_PREVIEW_PORT). */
  @WithDefault("4173")
  int previewPort();

  /** Host address the preview port is published on, to a Docker-assigned port (WORK_PREVIEW_BIND). */
  @WithDefault("127.0.0.1")
  String previewBind();

  /**
   * Host or IP the services connect to for a Docker-published Work port such as the preview
   * (WORK_DOCKER_PUBLISHED_HOST); absent: the preview bind. Set it when the services themselves run
   * in a container and reach the Docker host by another name (host.docker.internal).
   */
  Optional<String> dockerPublishedHost();

  /** The managed sandbox bridge network, created with ICC disabled (WORK_NETWORK_NAME). */
  @WithDefault("workcell-sandbox")
  String networkName();

  /**
   * Prove with a probe container that the managed network cannot reach the host or private ranges
   * before a network-enabled sandbox starts, and refuse those sandboxes until it holds; false only where
   * a NetworkPolicy or firewall of the operator's closes the network (decision 0008).
   */
  @WithDefault("true")
  boolean closedNetworkCheck();

  /**
   * Resolver IP literals forced on networked sandboxes, comma-separated (WORK_RUNTIME_DNS); entries
   * that are not addresses are dropped with a warning.
   */
  Optional<String> runtimeDns();

  /**
   * Stop a sandbox kept only by its preview after this long without activity; 0 disables: a preview
   * runs until it is stopped (WORK_RUNTIME_IDLE_TIMEOUT_MS).
   */
  @WithDefault("0")
  long runtimeIdleTimeoutMs();

  /**
   * How long a Work sandbox with no holder left (no run, operation, preview) keeps running before it
   * stops and frees its slot, so a burst of file requests does not stop and start it each time; 0: never.
   */
  @WithDefault("3s")
  Duration releaseGrace();

  /** Runs that may wait in line for a slot at once; past it a new run is refused at the door (429). */
  @WithDefault("16")
  int maxWaitingRuns();

  /** Running sandboxes per sandbox-service instance (WORK_MAX_ACTIVE_RUNTIMES_GLOBAL). */
  @WithDefault("3")
  int maxActiveRuntimesGlobal();

  /** Running sandboxes per owner (WORK_MAX_ACTIVE_RUNTIMES_PER_USER). */
  @WithDefault("2")
  int maxActiveRuntimesPerUser();

  /**
   * Size of a Work task's workspace (WORK_WORKSPACE_SIZE): its volume gets a filesystem of its own of
   * this size ({@code 5g}, {@code 512m}, {@code 5Gi}); a policy's {@code workspaceSize} wins. Fixed
   * when the volume is created.
   */
  @WithDefault("5g")
  String workspaceSize();

  /** Where and whether workspace and home volumes get a bounded filesystem of their own (decision 0010). */
  Disk disk();

  /** Size of the tmpfs mounted at /tmp (nosuid, nodev). */
  @WithDefault("512m")
  String tmpSize();

  /**
   * Names this deployment's sandboxes (label {@code dev.workcell.instance}); reconciliation only ever
   * touches resources of its own instance, so a test run cannot remove a running stack's sandboxes.
   */
  @WithDefault(DEFAULT_INSTANCE)
  String instance();

  /** How often safe mode retries the startup reconciliation. */
  @WithDefault("10s")
  Duration safeModeRetry();

  /** Deadline of questions to task-service (known tasks at start, a task's runtime policy). */
  @WithDefault("5s")
  Duration taskServiceTimeout();

  /** Open Terminal homes (one per user id): their spec, since they have no task policy. */
  Home home();

  /** The egress proxy of sandboxes with an egress allowlist (decision 0012). */
  Egress egress();

  /** How sandbox-service reaches celld in a running sandbox. */
  Celld celld();

  interface Disk {

    /**
     * New volumes get a loop-mounted ext4 image of their size, so a full workspace is ENOSPC in that
     * sandbox only; false: plain volumes on the engine's disk, unbounded (an engine without loop
     * devices). Volumes keep what they were created with.
     */
    @WithDefault("true")
    boolean bounded();

    /**
     * Host directory of the disk images, as the Docker engine's host sees it; it must be a shared mount
     * (the launcher makes it one: a bind mount of itself, {@code --make-rshared}).
     */
    @WithDefault("/var/lib/workcell/disks")
    String root();

    /**
     * Also attach a read-only clone of every mounted disk under {@code <root>/.read-only/<instance>/},
     * made read-only before it is attached, for a reader that binds that folder (compose's
     * sandbox-mirror, decision 0021): a read-only bind of the root itself passes disks mounted after
     * it was made on writable. Needs a kernel of 5.12 or later.
     */
    @WithDefault("false")
    boolean readOnlyView();
  }

  interface Celld {

    /**
     * {@code socket}: celld dials a unix socket in a host directory mounted read-only into its sandbox,
     * so requests skip dockerd's stream relay; {@code exec}: frames over the exec's stdin/stdout, for an
     * engine on another host; {@code auto}: socket when DOCKER_HOST is a unix socket, else exec.
     */
    @WithDefault("auto")
    String channel();

    /**
     * Host directory holding one small directory per sandbox (its socket). Keep it short: a unix socket
     * path has at most 107 bytes, and this plus the instance name and 28 more must fit.
     */
    @WithDefault("/run/workcell/cells")
    String socketDir();

    /**
     * Workcell's own image whose {@code /usr/local/bin/celld} fills the read-only celld volume of every
     * sandbox; absent: the runtime image when it is one of Workcell's (label
     * {@code dev.workcell.celld-sha256}), else {@code workcell/sandbox:dev}.
     */
    Optional<String> image();

    /**
     * Requests one sandbox may have waiting for its celld to read them ({@code 4m}); past it a request
     * fails at once with {@code sandbox_busy}. An empty queue always takes one request (up to 8 MiB).
     */
    @WithDefault("4m")
    String queueLimit();

    /** The same across every sandbox together; absent: an eighth of the JVM's maximum heap. */
    Optional<String> queueTotal();
  }

  interface Egress {

    /**
     * The proxy's port on the egress network's gateway address; the launcher's firewall opens exactly
     * this port to the {@code wcsbe-*} bridges (it reads WORKCELL_SANDBOX_EGRESS_PROXY_PORT too).
     */
    @WithDefault("13128")
    int proxyPort();

    /** The internal network of allowlisted sandboxes; absent: the network name plus {@code -egress}. */
    Optional<String> networkName();

    /** How long a sandbox's allowlist (read from its current policy) is reused before it is read again. */
    @WithDefault("2s")
    Duration policyCache();

    /**
     * Tests only: {@code name=ip,name=ip} answers the proxy's own resolution for these names (the
     * private-range check still applies unless {@link #allowPrivateDestinations()}).
     */
    Optional<String> resolveOverride();

    /**
     * Tests only (refused outside the test profile): let the proxy connect to private and loopback
     * addresses, so a fixture on the host can stand in for a public site.
     */
    @WithDefault("false")
    boolean allowPrivateDestinations();
  }

  interface Home {

    /**
     * Homes' egress allowlist, comma-separated names ({@code pypi.org,*.pythonhosted.org}); absent: the
     * open internet. Open Terminal's OPEN_TERMINAL_ALLOWED_DOMAINS in spirit; enforced by the egress proxy.
     */
    Optional<String> egressAllowlist();

    /** Image of home sandboxes; absent means the runtime image. */
    Optional<String> image();

    /** Homes are networked by default: OpenWebUI users expect {@code pip install} to work. */
    @WithDefault("true")
    boolean network();

    /**
     * Running homes per sandbox-service instance, a pool of their own: homes never take a slot of
     * WORK_MAX_ACTIVE_RUNTIMES_*. When it is full, a new home stops the least recently used idle one.
     */
    @WithDefault("20")
    int maxActive();

    /**
     * Stop a home after this long with nothing in flight and no background process running (volume
     * kept; 0 disables). Like seed 004's WORK_TERMINAL_IDLE_TIMEOUT_MS for terminal sessions.
     */
    @WithDefault("15m")
    Duration idleTimeout();

    /** Size of a home's volume, like {@link SandboxSettings#workspaceSize()} for tasks. */
    @WithDefault("5g")
    String workspaceSize();
  }
}
