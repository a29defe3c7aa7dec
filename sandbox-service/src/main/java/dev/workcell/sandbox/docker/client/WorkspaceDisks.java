package dev.workcell.sandbox.docker.client;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.BindOptions;
import com.github.dockerjava.api.model.BindPropagation;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Device;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.DiskUsage;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SeccompProfile;
import io.quarkus.logging.Log;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bounded workspaces (decision 0010): each volume is backed by an ext4 image of its own, loop-mounted
 * on the engine's host under {@code <root>/<instance>/<volume>/mnt}, and the Docker volume is a local
 * bind of {@code mnt/data} inside it. A full workspace is ENOSPC in that sandbox only, and since
 * {@code mnt/data} exists only while the image is mounted, a disk that is not mounted (after a
 * reboot) makes the sandbox's start fail instead of writing to the host's own disk.
 *
 * <p>sandbox-service needs no root for this: {@code workspace-disk.sh} runs in a short-lived helper
 * as root with only CAP_SYS_ADMIN (mount), CAP_MKNOD (a loop device node) and CAP_CHOWN, the loop
 * devices alone, no network, and the disk root bind-mounted {@code rshared}, so its mounts appear on
 * the host where dockerd binds them. With {@code disk.read-only-view} it also attaches a read-only
 * clone of each disk under {@code <root>/.read-only/<instance>/<volume>/mnt} for compose's sandbox-mirror
 * (decision 0021).
 */
public final class WorkspaceDisks {

  /** On a bounded volume: the size of its disk in bytes. Unbounded (older) volumes have none. */
  public static final String SIZE_LABEL = "dev.workcell.disk-size";

  private static final String HELPER_ROOT = "/disks";
  private static final String SCRIPT = script();
  private static final Pattern STATFS = Pattern.compile("([0-9]{1,12}) ([0-9]{1,15}) ([0-9]{1,15})");
  private static final long USAGE_TIMEOUT_SECONDS = 10;

  private final DockerClient docker;
  private final HelperContainer helpers;
  private final boolean enabled;
  private final String root;
  private final String instance;
  private final boolean readOnlyView;
  private final Map<String, DiskUsage> measured = new ConcurrentHashMap<>();

  WorkspaceDisks(DockerClient docker, HelperContainer helpers, boolean enabled, String root, String instance,
      boolean readOnlyView) {
    this.docker = docker;
    this.helpers = helpers;
    this.enabled = enabled;
    this.root = root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
    this.instance = instance;
    this.readOnlyView = readOnlyView;
  }

  /** Whether new volumes get a disk of their own. */
  boolean enabled() {
    return enabled;
  }

  static boolean bounded(Map<String, String> volumeLabels) {
    return volumeLabels != null && volumeLabels.containsKey(SIZE_LABEL);
  }

  /** The host path dockerd binds as the volume: inside the mounted image, absent while it is not mounted. */
  String device(String volume) {
    return root + "/" + instance + "/" + volume + "/mnt/data";
  }

  /** The local-driver options of a volume that is a bind of its disk. */
  Map<String, String> volumeOptions(String volume) {
    return Map.of("type", "none", "o", "bind", "device", device(volume));
  }

  /** Makes the disk of {@code volume} ({@code bytes} large) and mounts it; a disk that exists is only mounted. */
  synchronized void create(String volume, long bytes, String image) {
    long start = System.nanoTime();
    HelperContainer.Outcome outcome = run("disk-create", image, List.of("ensure", instance, volume, Long.toString(bytes)));
    if (outcome.code() != 0) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "could not create the disk of " + volume + " under " + root
          + " (exit " + outcome.code() + "): " + outcome.output().strip());
    }
    Log.infof("disk of %s ready in %d ms: %s", volume, (System.nanoTime() - start) / 1_000_000, outcome.output().strip());
  }

  /**
   * Mounts the disks of {@code volumes} that exist but are not mounted (after a reboot of the host);
   * creates none. Returns false when one could not be mounted (its sandbox then cannot start).
   */
  synchronized boolean mount(Collection<String> volumes, String image) {
    if (volumes.isEmpty()) {
      return true;
    }
    List<String> args = new ArrayList<>(List.of("mount", instance));
    args.addAll(volumes);
    HelperContainer.Outcome outcome = run("disk-mount", image, args);
    for (String line : outcome.output().strip().split("\n")) {
      if (line.startsWith("mounted ") || line.startsWith("missing ") || line.startsWith("failed ")) {
        Log.infof("disk %s", line);
      }
    }
    if (outcome.code() != 0) {
      Log.warnf("not every disk could be mounted (exit %d): %s", outcome.code(), outcome.output().strip());
    }
    return outcome.code() == 0;
  }

  /** Unmounts the disk of {@code volume} (the loop device detaches with it) and deletes the image. */
  synchronized void remove(String volume, String image) {
    HelperContainer.Outcome outcome = run("disk-remove", image, List.of("remove", instance, volume));
    measured.remove(volume);
    if (outcome.code() != 0) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "could not remove the disk of " + volume + " (exit "
          + outcome.code() + "): " + outcome.output().strip());
    }
  }

  /**
   * Size and use of {@code volume}: measured with {@code stat -f} in the running sandbox (as the
   * workload's user), else the last measurement. Empty when nothing is known.
   */
  Optional<DiskUsage> usage(String volume, Map<String, String> volumeLabels, Optional<String> runningContainer, String workdir) {
    if (!bounded(volumeLabels)) {
      return Optional.of(DiskUsage.unbounded());
    }
    long size;
    try {
      size = Long.parseLong(volumeLabels.get(SIZE_LABEL));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (runningContainer.isPresent()) {
      Optional<DiskUsage> now = statfs(runningContainer.get(), workdir);
      now.ifPresent(usage -> measured.put(volume, usage));
      if (now.isPresent()) {
        return now;
      }
    }
    DiskUsage last = measured.get(volume);
    return Optional.of(last != null ? last : new DiskUsage(true, size, null, null));
  }

  /** Forgets the measurement of volumes that are gone. */
  void forgetExcept(Collection<String> volumes) {
    measured.keySet().retainAll(volumes);
  }

  private Optional<DiskUsage> statfs(String containerId, String workdir) {
    StringBuilder out = new StringBuilder();
    try {
      String exec = docker.execCreateCmd(containerId).withUser(SandboxHardening.USER)
          .withCmd("stat", "-f", "-c", "%S %b %f", workdir).withAttachStdout(true).withAttachStderr(false).exec().getId();
      boolean done = docker.execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>() {
        @Override
        public void onNext(Frame frame) {
          if (out.length() < 200) {
            out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
          }
        }
      }).awaitCompletion(USAGE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (!done) {
        return Optional.empty();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (RuntimeException e) {
      Log.debugf("could not measure the disk of %s: %s", containerId, e.getMessage());
      return Optional.empty();
    }
    Matcher m = STATFS.matcher(out.toString().strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    long block = Long.parseLong(m.group(1));
    long blocks = Long.parseLong(m.group(2));
    long free = Long.parseLong(m.group(3));
    // The filesystem's own size (the image less ext4's metadata): what the workload can fill.
    return Optional.of(new DiskUsage(true, blocks * block, (blocks - Math.min(free, blocks)) * block, Instant.now()));
  }

  private HelperContainer.Outcome run(String purpose, String image, List<String> args) {
    List<String> command = new ArrayList<>(List.of("sh", "-c", SCRIPT, "workspace-disk"));
    if (readOnlyView) {
      command.add("--read-only-view");
    }
    command.addAll(args);
    try {
      return helpers.runAsRoot(purpose, image, command, hostConfig(root));
    } catch (RuntimeException e) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "disk helper (" + purpose + ") could not run with " + root
          + " (it must exist and be a shared mount: bin/workcell up makes it one; see decision 0010): " + e.getMessage(), e);
    }
  }

  /**
   * Root with CAP_SYS_ADMIN (mount, loop ioctls), CAP_MKNOD (a loopN node in its own /dev) and
   * CAP_CHOWN, the loop devices alone (block major 7 and loop-control), AppArmor off (Docker's
   * default profile denies mount); the seccomp profile and no-new-privileges stay.
   */
  private static HostConfig hostConfig(String root) {
    return HostConfig.newHostConfig()
        .withCapAdd(Capability.SYS_ADMIN, Capability.MKNOD, Capability.CHOWN)
        .withSecurityOpts(List.of("no-new-privileges", SeccompProfile.SECURITY_OPT, "apparmor=unconfined"))
        .withDevices(new Device("rwm", "/dev/loop-control", "/dev/loop-control"))
        .withDeviceCgroupRules(List.of("b 7:* rwm"))
        .withMounts(List.of(new Mount().withType(MountType.BIND).withSource(root).withTarget(HELPER_ROOT)
            .withBindOptions(new BindOptions().withPropagation(BindPropagation.R_SHARED))));
  }

  /**
   * Unmounts and deletes every disk of {@code instance} under {@code root}: for tests' cleanup, after
   * their volumes are gone. {@code image} is one of Workcell's (it has the tools).
   */
  public static void clearInstance(DockerClient docker, String root, String instance, String image) {
    HelperContainer helpers = new HelperContainer(docker, instance);
    List<String> command = List.of("sh", "-c", SCRIPT, "workspace-disk", "clear", instance);
    HelperContainer.Outcome outcome = helpers.runAsRoot("disk-clear", image, command, hostConfig(root));
    if (outcome.code() != 0) {
      throw new IllegalStateException("clearing the disks of " + instance + " failed: " + outcome.output());
    }
  }

  private static String script() {
    try (InputStream in = WorkspaceDisks.class.getResourceAsStream("/disk/workspace-disk.sh")) {
      if (in == null) {
        throw new IllegalStateException("disk/workspace-disk.sh is missing from sandbox-service");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
