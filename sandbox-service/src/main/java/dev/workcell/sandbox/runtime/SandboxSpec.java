package dev.workcell.sandbox.runtime;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The effective, fully resolved configuration of one sandbox: policy fields merged over the global
 * settings. Network-only fields are blank when {@code network} is off, so they cannot cause drift there.
 * {@code workdir} is where the volume is mounted (also the working directory and celld's root):
 * {@code /workspace} for tasks, {@code /home/user} for homes. {@code celldSocketRoot} is the host
 * directory of celld's per-sandbox socket directories, blank when celld is reached over the exec.
 * {@code nanoCpus} is 0 (no ceiling) unless the limit is below the host's cores; {@code cpuShares} is
 * the sandbox's CPU weight, which is what shares a busy host fairly. {@code hostFolder} is the real
 * path of a host folder bound at {@code workdir} in place of the volume (decision 0023), blank for none.
 */
public record SandboxSpec(
    String image,
    long memoryBytes,
    long nanoCpus,
    int cpuShares,
    long pidsLimit,
    long tmpBytes,
    boolean network,
    String networkName,
    List<String> dns,
    int previewPort,
    String previewBind,
    String workdir,
    String celldSocketRoot,
    String hostFolder) {

  public SandboxSpec {
    dns = List.copyOf(dns);
    hostFolder = hostFolder == null ? "" : hostFolder;
  }

  /** A sandbox whose workspace is its volume. */
  public SandboxSpec(String image, long memoryBytes, long nanoCpus, int cpuShares, long pidsLimit, long tmpBytes,
      boolean network, String networkName, List<String> dns, int previewPort, String previewBind, String workdir,
      String celldSocketRoot) {
    this(image, memoryBytes, nanoCpus, cpuShares, pidsLimit, tmpBytes, network, networkName, dns, previewPort, previewBind,
        workdir, celldSocketRoot, "");
  }

  /** Whether the workspace is a host folder (bind-mounted) rather than the sandbox's volume. */
  public boolean onHostFolder() {
    return !hostFolder.isEmpty();
  }

  /** A home also gets {@code HOME} pointing at its volume, whatever the image says. */
  public boolean home() {
    return SandboxKey.HOME_DIR.equals(workdir);
  }

  /**
   * The host directory mounted read-only at {@link SandboxHardening#CELLD_MOUNT} in the sandbox named
   * {@code container}, holding the socket celld dials; empty when celld is reached over the exec.
   * Named from a hash so any container name gives a short socket path.
   */
  public Optional<Path> celldSocketDir(String container) {
    return celldSocketDir(celldSocketRoot, container);
  }

  /** The same directory under {@code root}, for a sandbox whose spec is not at hand (its removal). */
  public static Optional<Path> celldSocketDir(String root, String container) {
    if (root.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(Path.of(root, HexFormat.of().formatHex(sha256(container)).substring(0, 16)));
  }

  /** sha256 over every field and the hardening profile; stored as the policy-hash label. */
  public String hash() {
    String canonical = SandboxHardening.describe() + ";image=" + image + ";memory=" + memoryBytes + ";swap=" + memoryBytes
        + ";nanocpus=" + nanoCpus + ";cpushares=" + cpuShares + ";pids=" + pidsLimit + ";tmp=" + tmpBytes + ";network=" + network
        + ";netname=" + networkName + ";dns=" + String.join(",", dns) + ";preview=" + previewBind + ":" + previewPort
        + ";mount=" + workdir + ";celld=" + celldSocketRoot + (onHostFolder() ? ";host=" + hostFolder : "");
    return HexFormat.of().formatHex(sha256(canonical));
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }
}
