package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.command.InspectVolumeResponse;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.Ports;
import com.github.dockerjava.api.model.VolumeOptions;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.DiskUsage;
import dev.workcell.sandbox.config.DiskSizes;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.egress.EgressNetwork;
import dev.workcell.sandbox.egress.EgressProxy;
import dev.workcell.sandbox.runtime.DriverCalls;
import dev.workcell.sandbox.runtime.ExecStream;
import dev.workcell.sandbox.runtime.HostResources;
import dev.workcell.sandbox.runtime.ManagedVolume;
import dev.workcell.sandbox.runtime.PreviewEndpoint;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxSpec;
import dev.workcell.sandbox.runtime.WorkspaceSizes;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** {@link SandboxDriver} on the Docker Engine API. */
@ApplicationScoped
public class DockerSandboxDriver implements SandboxDriver {

  private final DockerClient docker;
  private final DockerClient streams;
  private final SandboxSettings settings;
  private final ManagedNetwork network;
  private final HelperContainer helpers;
  private final CelldVolume celld;
  private final RequestQueueBudget queues;
  private final ClosedNetworkCheck closedNetwork;
  private final EgressAttachment egress;
  /** The egress proxy of allowlisted sandboxes (decision 0012); null in a driver built without CDI. */
  @Inject
  EgressProxy egressProxy;
  private final WorkspaceDisks disks;
  private final WorkspaceSizes sizes;
  private volatile HostResources host;

  /**
   * @param docker API calls, with a response timeout
   * @param streams long-lived exec attachments, without one (an idle celld must not time out)
   */
  public DockerSandboxDriver(DockerClient docker, DockerClient streams, SandboxSettings settings, RequestQueueBudget queues) {
    this(docker, streams, settings, queues, key -> DiskSizes.bytes(key.home() ? settings.home().workspaceSize()
        : settings.workspaceSize()).orElseThrow());
  }

  /** @param sizes the size of a new volume's disk (a task's policy may set its own) */
  @Inject
  public DockerSandboxDriver(DockerClient docker, @Streaming DockerClient streams, SandboxSettings settings,
      RequestQueueBudget queues, WorkspaceSizes sizes) {
    this.docker = docker;
    this.sizes = sizes;
    this.queues = queues;
    this.streams = streams;
    this.settings = settings;
    this.network = new ManagedNetwork(docker);
    this.helpers = new HelperContainer(docker, settings.instance());
    this.celld = new CelldVolume(docker, helpers, settings.celld().image(), settings.runtimeImage(), settings.instance());
    this.closedNetwork = new ClosedNetworkCheck(docker, helpers, settings.closedNetworkCheck());
    this.egress = new EgressAttachment(docker, () -> egressProxy, EgressNetwork.name(settings));
    this.disks = new WorkspaceDisks(docker, helpers, settings.disk().bounded(), settings.disk().root(), settings.instance(),
        settings.disk().readOnlyView());
  }

  @Override
  public Optional<SandboxInstance> find(SandboxKey key) {
    return call("inspect the sandbox of " + key.describe(), () -> inspect(key.container(settings.instance())).map(DockerSandboxDriver::instance));
  }

  @Override
  public Optional<ManagedVolume> findVolume(SandboxKey key) {
    return call("inspect the volume of " + key.describe(), () -> {
      try {
        InspectVolumeResponse volume = docker.inspectVolumeCmd(key.volume(settings.instance())).exec();
        return Optional.of(new ManagedVolume(volume.getName(), volume.getLabels()));
      } catch (NotFoundException e) {
        return Optional.empty();
      }
    });
  }

  @Override
  public List<String> drift(SandboxKey key, SandboxInstance instance, SandboxSpec spec) {
    return call("verify sandbox " + instance.name(), () -> {
      Optional<InspectContainerResponse> inspect = inspect(instance.containerId());
      if (inspect.isEmpty()) {
        return List.of("container is gone");
      }
      List<String> drift = new ArrayList<>(HardeningCheck.drift(inspect.get(), spec, key.volume(settings.instance()),
          celld.current().volume(), imageId(spec.image())));
      if (spec.network()) {
        networkDrift(inspect.get(), spec.networkName()).ifPresent(drift::add);
        if (egress.on(spec)) {
          egress.drift(inspect.get(), spec, network.ensure(spec.networkName(), ManagedNetwork.Kind.EGRESS)).ifPresent(drift::add);
        }
      }
      return drift;
    });
  }

  @Override
  public SandboxInstance create(SandboxKey key, SandboxSpec spec, String policyLabel) {
    return call("create the sandbox of " + key.describe(), () -> {
      CelldVolume.Source celldSource = celld.ensure();
      // A host folder is the workspace itself: no volume is made, and the folder is never chowned
      // (what uid 1000 may write there is the host's permissions; decision 0023).
      String volume = spec.onHostFolder() ? null : ensureVolume(key, celldSource.image());
      String networkId = spec.network() ? requireClosedNetwork(spec, celldSource) : null;
      Map<String, String> labels = new HashMap<>(key.labels(settings.instance()));
      labels.put(SandboxLabels.POLICY_HASH, spec.hash());
      labels.put(SandboxLabels.POLICY, policyLabel);
      String name = key.container(settings.instance());
      prepareCelldSocketDir(spec, name);
      String id;
      try {
        id = egress.withProxyEnv(ContainerBlueprint.create(docker, spec, name, volume, celldSource.volume(), labels), spec, networkId)
            .exec().getId();
      } catch (ConflictException e) {
        throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "container name " + name + " is already taken", e);
      } catch (NotFoundException e) {
        throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "sandbox image " + spec.image() + " is not available on the engine", e);
      }
      InspectContainerResponse created = inspect(id).orElseThrow(() ->
          new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "container " + name + " vanished right after creation"));
      // Read back what the engine applied: an engine that silently drops a limit must not run sandboxes.
      List<String> drift = HardeningCheck.drift(created, spec, volume, celldSource.volume(), null);
      if (!drift.isEmpty()) {
        removeQuietly(id);
        throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "the engine did not apply the hardening profile: " + drift);
      }
      if (volume != null) {
        giveToSandboxUser(volume, spec, celldSource.image(), id);
      }
      Log.infof("created sandbox %s (%s) for %s", name, id.substring(0, 12), key.describe());
      return instance(created);
    });
  }

  @Override
  public void start(SandboxInstance instance, SandboxSpec spec) {
    run("start sandbox " + instance.name(), () -> {
      if (spec.network()) {
        requireClosedNetwork(spec, celld.ensure());
      }
      prepareCelldSocketDir(spec, instance.name());
      try {
        docker.startContainerCmd(instance.containerId()).exec();
      } catch (NotModifiedException alreadyRunning) {
        // another replica or an earlier attempt started it
      } catch (RuntimeException e) {
        // A bounded volume whose disk is not mounted (a reboot) cannot be bound: mount it, then start once more.
        if (!volumeMountFailed(e) || !remountDisk(instance)) {
          throw e;
        }
        docker.startContainerCmd(instance.containerId()).exec();
      }
    });
  }

  private static boolean volumeMountFailed(RuntimeException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    return message.contains("mount local volume") || message.contains("mounting volume");
  }

  private boolean remountDisk(SandboxInstance instance) {
    SandboxKey key = SandboxKey.fromLabels(instance.labels());
    Optional<ManagedVolume> volume = key == null ? Optional.empty() : findVolume(key);
    if (volume.isEmpty() || !WorkspaceDisks.bounded(volume.get().labels())) {
      return false;
    }
    Log.warnf("the disk of %s was not mounted; mounting it", volume.get().name());
    return disks.mount(List.of(volume.get().name()), celld.current().image());
  }

  @Override
  public Optional<DiskUsage> diskUsage(SandboxKey key, Optional<SandboxInstance> instance) {
    return findVolume(key).flatMap(volume -> disks.usage(volume.name(), volume.labels(),
        instance.filter(SandboxInstance::running).map(SandboxInstance::containerId), key.workdir()));
  }

  @Override
  public void mountDisks(List<ManagedVolume> volumes) {
    List<String> bounded = volumes.stream().filter(v -> WorkspaceDisks.bounded(v.labels())).map(ManagedVolume::name).toList();
    disks.forgetExcept(bounded);
    if (bounded.isEmpty()) {
      return;
    }
    try {
      disks.mount(bounded, celld.ensure().image());
    } catch (RuntimeException e) {
      // Not fatal: an unmounted disk only keeps its own sandbox from starting (and start tries again).
      Log.warnf("the disks of %d volumes could not be mounted: %s", bounded.size(), e.getMessage());
    }
  }

  @Override
  public void stop(SandboxInstance instance) {
    run("stop sandbox " + instance.name(), () -> {
      try {
        docker.stopContainerCmd(instance.containerId()).withTimeout(3).exec();
      } catch (NotModifiedException | NotFoundException alreadyStopped) {
        // nothing to stop
      }
    });
  }

  @Override
  public void removeContainer(SandboxInstance instance) {
    run("remove sandbox " + instance.name(), () -> {
      try {
        docker.removeContainerCmd(instance.containerId()).withForce(true).withRemoveVolumes(false).exec();
      } catch (NotFoundException alreadyGone) {
        // nothing to remove
      }
    });
  }

  @Override
  public void removeVolume(ManagedVolume volume) {
    run("remove workspace volume " + volume.name(), () -> {
      try {
        docker.removeVolumeCmd(volume.name()).exec();
      } catch (NotFoundException alreadyGone) {
        // nothing to remove
      }
      if (WorkspaceDisks.bounded(volume.labels())) {
        // Only once no container can use it: the volume is gone.
        disks.remove(volume.name(), celld.current().image());
      }
    });
  }

  @Override
  public List<SandboxInstance> listManaged() {
    return call("list managed sandboxes", () -> docker.listContainersCmd().withShowAll(true)
        .withLabelFilter(Map.of(SandboxLabels.MANAGED, "true", SandboxLabels.INSTANCE, settings.instance()))
        .exec().stream().map(DockerSandboxDriver::instance).toList());
  }

  @Override
  public List<ManagedVolume> listManagedVolumes() {
    return call("list managed workspace volumes", () -> {
      var response = docker.listVolumesCmd()
          .withFilter("label", List.of(SandboxLabels.MANAGED + "=true", SandboxLabels.INSTANCE + "=" + settings.instance()))
          .exec();
      if (response.getVolumes() == null) {
        return List.<ManagedVolume>of();
      }
      return response.getVolumes().stream().map(v -> new ManagedVolume(v.getName(), v.getLabels())).toList();
    });
  }

  @Override
  public ExecStream exec(SandboxInstance instance, String workdir, List<String> command, ExecStream.Listener listener) {
    return call("attach to sandbox " + instance.name(), () -> {
      String execId = docker.execCreateCmd(instance.containerId())
          .withCmd(command.toArray(String[]::new))
          .withUser(SandboxHardening.CONTAINER_USER)
          .withWorkingDir(workdir)
          .withAttachStdin(true).withAttachStdout(true).withAttachStderr(true).withTty(false)
          .exec().getId();
      DockerExecStream stream = new DockerExecStream(listener, queues.share());
      streams.execStartCmd(execId).withDetach(false).withTty(false).withStdIn(stream.stdin()).exec(stream);
      return stream;
    });
  }

  @Override
  public Optional<PreviewEndpoint> previewEndpoint(SandboxInstance instance) {
    return call("read the preview port of " + instance.name(), () -> inspect(instance.containerId()).flatMap(inspect -> {
      if (inspect.getNetworkSettings() == null || inspect.getNetworkSettings().getPorts() == null) {
        return Optional.empty();
      }
      Ports.Binding[] bindings = inspect.getNetworkSettings().getPorts().getBindings().get(ExposedPort.tcp(settings.previewPort()));
      if (bindings == null || bindings.length == 0 || bindings[0].getHostPortSpec() == null || bindings[0].getHostPortSpec().isBlank()) {
        // An internal (egress) network publishes nothing: the host reaches the sandbox on the bridge.
        return egress.previewEndpoint(inspect, settings.previewPort());
      }
      // Published on the preview bind; callers connect through WORK_DOCKER_PUBLISHED_HOST when it is set.
      String host = settings.dockerPublishedHost().orElse(bindings[0].getHostIp());
      return Optional.of(new PreviewEndpoint(host, Integer.parseInt(bindings[0].getHostPortSpec())));
    }));
  }

  @Override
  public HostResources hostResources() {
    HostResources known = host;
    if (known == null) {
      known = call("read the engine's memory and cores", () -> {
        var info = docker.infoCmd().exec();
        if (info.getMemTotal() == null || info.getMemTotal() <= 0 || info.getNCPU() == null || info.getNCPU() <= 0) {
          throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "the engine reported no memory total or core count");
        }
        return new HostResources(info.getMemTotal(), info.getNCPU());
      });
      host = known;
    }
    return known;
  }

  /**
   * Network-enabled sandboxes run only on a managed bridge, and only once it is proven closed; on the
   * egress network the proxy listens before the sandbox starts. The network's id.
   */
  private String requireClosedNetwork(SandboxSpec spec, CelldVolume.Source celldSource) {
    String networkId = network.ensure(spec.networkName(), egress.kind(spec.networkName()));
    closedNetwork.require(spec.networkName(), networkId, celldSource.image());
    if (egress.on(spec)) {
      egress.listen(networkId);
    }
    return networkId;
  }

  /** A sandbox attached to a managed network that was since recreated (an older, unfirewalled one). */
  private Optional<String> networkDrift(InspectContainerResponse inspect, String name) {
    var networks = inspect.getNetworkSettings() == null ? null : inspect.getNetworkSettings().getNetworks();
    var endpoint = networks == null ? null : networks.get(name);
    String attached = endpoint == null ? null : endpoint.getNetworkID();
    if (attached == null || attached.isBlank()) {
      return Optional.empty();
    }
    // ensure: an outdated managed network is recreated here, so its sandboxes drift now rather than fail to start.
    String current = network.ensure(name, egress.kind(name));
    return attached.equals(current) ? Optional.empty()
        : Optional.of("network id: attached to " + attached + ", the managed network " + name + " is " + current);
  }

  /** A bind mount's source must exist when the container is created and every time it starts (/run empties on reboot). */
  private static void prepareCelldSocketDir(SandboxSpec spec, String name) {
    spec.celldSocketDir(name).ifPresent(dir -> {
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "cannot create celld's socket directory " + dir + ": " + e.getMessage(), e);
      }
    });
  }

  /**
   * A stock image has no mount point owned by uid 1000, so its fresh volume would be root's. Root in
   * a helper (CAP_CHOWN only) hands the volume's top directory over; after the create, because the
   * create's copy-up sets it from the image. Workcell's images own their mount points already.
   */
  private void giveToSandboxUser(String volume, SandboxSpec spec, String helperImage, String containerId) {
    if (inspectImage(spec.image()).map(image -> image.getConfig() != null && image.getConfig().getLabels() != null
        && image.getConfig().getLabels().containsKey(CelldVolume.CELLD_SHA_LABEL)).orElse(false)) {
      return;
    }
    Mount mount = new Mount().withType(MountType.VOLUME).withSource(volume).withTarget("/volume")
        .withVolumeOptions(new VolumeOptions().withNoCopy(true));
    int code = helpers.run("chown-volume", helperImage, "0:0", List.of("chown", SandboxHardening.USER, "/volume"), List.of(mount),
        List.of(Capability.CHOWN));
    if (code != 0) {
      removeQuietly(containerId);
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "could not give volume " + volume + " to uid 1000 (exit " + code + ")");
    }
  }

  /** --init reports an idle process it could not exec as exit 126/127: the image has no {@code sleep}. */
  @Override
  public Optional<String> startFailure(SandboxInstance instance) {
    return call("inspect sandbox " + instance.name(), () -> inspect(instance.containerId()).flatMap(inspect -> {
      var state = inspect.getState();
      Long code = state == null ? null : state.getExitCodeLong();
      if (state == null || Boolean.TRUE.equals(state.getRunning()) || code == null || (code != 126 && code != 127)) {
        return Optional.empty();
      }
      String image = inspect.getConfig() == null ? "?" : inspect.getConfig().getImage();
      return Optional.of("the sandbox exited at start (code " + code + "): its image " + image
          + " must provide sleep on PATH and /bin/sh (see sandbox-service README)");
    }));
  }

  private String ensureVolume(SandboxKey key, String helperImage) {
    String name = key.volume(settings.instance());
    Map<String, String> wanted = key.labels(settings.instance());
    try {
      InspectVolumeResponse existing = docker.inspectVolumeCmd(name).exec();
      Map<String, String> labels = existing.getLabels() == null ? Map.of() : existing.getLabels();
      if (!key.owns(labels, settings.instance())) {
        throw new WorkcellException(ErrorCode.OWNERSHIP_CONFLICT, "volume " + name + " is not labelled for this " + key.describe());
      }
      return name;
    } catch (NotFoundException absent) {
      if (!disks.enabled()) {
        docker.createVolumeCmd().withName(name).withDriver("local").withLabels(wanted).exec();
        return name;
      }
      long bytes = sizes.bytes(key);
      disks.create(name, bytes, helperImage);
      Map<String, String> labels = new HashMap<>(wanted);
      labels.put(WorkspaceDisks.SIZE_LABEL, Long.toString(bytes));
      docker.createVolumeCmd().withName(name).withDriver("local").withDriverOpts(disks.volumeOptions(name)).withLabels(labels).exec();
      return name;
    }
  }

  private Optional<InspectContainerResponse> inspect(String idOrName) {
    try {
      InspectContainerResponse response = docker.inspectContainerCmd(idOrName).exec();
      // Names resolve to containers by id prefix too; require the exact name or id.
      String name = response.getName() == null ? "" : response.getName().replaceFirst("^/", "");
      return name.equals(idOrName) || response.getId().equals(idOrName) ? Optional.of(response) : Optional.empty();
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  private String imageId(String image) {
    // null: the running container keeps working; creation will report the missing image
    return inspectImage(image).map(InspectImageResponse::getId).orElse(null);
  }

  private Optional<InspectImageResponse> inspectImage(String image) {
    try {
      return Optional.of(docker.inspectImageCmd(image).exec());
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  private void removeQuietly(String id) {
    try {
      docker.removeContainerCmd(id).withForce(true).exec();
    } catch (RuntimeException e) {
      Log.warnf("could not remove refused container %s: %s", id, e.getMessage());
    }
  }

  private static SandboxInstance instance(InspectContainerResponse inspect) {
    String name = inspect.getName() == null ? "" : inspect.getName().replaceFirst("^/", "");
    var state = inspect.getState();
    String value = state != null && Boolean.TRUE.equals(state.getRunning()) ? "running"
        : state != null && "created".equals(state.getStatus()) ? "created" : "stopped";
    return new SandboxInstance(inspect.getId(), name, value, inspect.getConfig() == null ? Map.of() : inspect.getConfig().getLabels());
  }

  private static SandboxInstance instance(Container container) {
    String name = container.getNames() == null || container.getNames().length == 0 ? "" : container.getNames()[0].replaceFirst("^/", "");
    String value = "running".equals(container.getState()) ? "running" : "created".equals(container.getState()) ? "created" : "stopped";
    return new SandboxInstance(container.getId(), name, value, container.getLabels());
  }

  private static <T> T call(String action, Supplier<T> work) {
    return DriverCalls.call(action, work, DockerErrors::translate);
  }

  private static void run(String action, Runnable work) {
    DriverCalls.run(action, work, DockerErrors::translate);
  }
}
