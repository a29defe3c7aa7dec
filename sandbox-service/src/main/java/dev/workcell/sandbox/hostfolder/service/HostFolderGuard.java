package dev.workcell.sandbox.hostfolder.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.config.DockerSettings;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.hostfolder.config.HostFolderSettings;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Decides whether a host folder may become a task's {@code /workspace} (decision 0023). Every rule
 * is applied to the folder's real path (links resolved), so a link inside a root that points at
 * {@code /etc} is {@code /etc}. Checked when the task is made and again before every bind mount:
 * the folder may have been replaced by a link since.
 */
@ApplicationScoped
public class HostFolderGuard {

  /** The system's own directories: a sandbox must neither see nor write them, nor a folder holding one. */
  static final List<String> SYSTEM = List.of("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
      "/proc", "/root", "/run", "/sbin", "/sys", "/usr", "/var/lib/docker", "/var/lib/containerd", "/var/run",
      "/var/lib/workcell");
  static final List<String> DOCKER_SOCKETS = List.of("/var/run/docker.sock", "/run/docker.sock");

  private final boolean enabled;
  private final boolean kubernetes;
  private final List<Path> roots;
  private final List<Path> denied;

  @Inject
  public HostFolderGuard(HostFolderSettings settings, SandboxSettings sandbox, DockerSettings docker,
      @ConfigProperty(name = "workcell.state") Optional<String> stateFolder) {
    // Seed 004: without WORK_HOST_WORKSPACE_ROOTS the root is the server user's home.
    this(settings.enabled(), sandbox.kubernetes(), settings.roots().orElse(List.of(System.getProperty("user.home"))),
        denylist(settings.denied().orElse(List.of()), stateFolder, docker.host(), sandbox.disk().root(),
            sandbox.celld().socketDir()));
  }

  HostFolderGuard(boolean enabled, boolean kubernetes, List<String> roots, List<String> denied) {
    this.enabled = enabled;
    this.kubernetes = kubernetes;
    this.roots = roots.stream().map(HostFolderGuard::existingRoot).flatMap(Optional::stream).toList();
    // Denied paths count as written and as resolved: either spelling of /var/run (a link to /run) is refused.
    this.denied = denied.stream().flatMap(d -> Stream.concat(Stream.of(Path.of(d).normalize()), realPath(Path.of(d)).stream()))
        .distinct().toList();
  }

  /**
   * Directory names seed 004 always refuses, wherever they are: credentials, tool configuration and
   * dependency trees (plus Workcell's own state folder name). A folder that is one or lies in one is refused.
   */
  static final Set<String> DENIED_NAMES = Set.of(".ssh", ".gnupg", ".aws", ".config", ".kube", ".docker", ".claude",
      ".libre-webui", ".workcell", "node_modules");

  /**
   * The folder's real path, or the refusal: off ({@code host_folders_disabled}), on Kubernetes
   * ({@code host_folders_unsupported}), not an admin ({@code forbidden}), missing or not a directory
   * ({@code host_folder_not_found}), denied ({@code host_folder_denied}), outside every root
   * ({@code host_folder_outside_roots}). Asked when a task is made.
   */
  public Path require(Actor actor, String folder) {
    requireOffered();
    if (actor == null || !actor.isAdmin()) {
      throw new WorkcellException(ErrorCode.FORBIDDEN, "only an admin may give a task a host folder");
    }
    return resolve(folder);
  }

  /**
   * The stored folder checked again before a container is created or started with it: every rule but
   * the admin's, which was the task creator's. The folder may have been replaced by a link since.
   */
  public Path recheck(String folder) {
    requireOffered();
    return resolve(folder);
  }

  /** Whether {@code actor} could give a new task a host folder now (for capabilities). */
  public boolean offeredTo(Actor actor) {
    return enabled && !kubernetes && actor != null && actor.isAdmin();
  }

  private void requireOffered() {
    if (!enabled) {
      throw new WorkcellException(ErrorCode.HOST_FOLDERS_DISABLED, null);
    }
    if (kubernetes) {
      throw new WorkcellException(ErrorCode.HOST_FOLDERS_UNSUPPORTED, null);
    }
  }

  private Path resolve(String folder) {
    if (folder == null || folder.isBlank() || folder.indexOf('\0') >= 0 || !Path.of(folder).isAbsolute()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "a host folder is an absolute path");
    }
    Path real = realPath(Path.of(folder)).filter(Files::isDirectory)
        .orElseThrow(() -> new WorkcellException(ErrorCode.HOST_FOLDER_NOT_FOUND, null));
    if (real.getParent() == null || denied.stream().anyMatch(d -> real.startsWith(d) || d.startsWith(real))) {
      throw new WorkcellException(ErrorCode.HOST_FOLDER_DENIED, "the host folder " + real + " is or holds a denied path");
    }
    if (deniedName(Path.of(folder).normalize()) || deniedName(real)) {
      throw new WorkcellException(ErrorCode.HOST_FOLDER_DENIED, "the host folder " + real + " is or lies in a directory named one of "
          + DENIED_NAMES.stream().sorted().toList());
    }
    if (roots.stream().noneMatch(real::startsWith)) {
      throw new WorkcellException(ErrorCode.HOST_FOLDER_OUTSIDE_ROOTS, "the host folder " + real + " is not inside a root");
    }
    return real;
  }

  private static boolean deniedName(Path path) {
    for (Path name : path) {
      if (DENIED_NAMES.contains(name.toString())) {
        return true;
      }
    }
    return false;
  }

  static List<String> denylist(List<String> configured, Optional<String> stateFolder, String dockerHost, String diskRoot,
      String celldSockets) {
    List<String> all = new ArrayList<>(SYSTEM);
    all.addAll(DOCKER_SOCKETS);
    all.addAll(configured);
    stateFolder.filter(s -> !s.isBlank()).ifPresent(all::add);
    if (dockerHost != null && dockerHost.startsWith("unix://")) {
      all.add(URI.create(dockerHost).getPath());
    }
    all.add(diskRoot);
    all.add(celldSockets);
    return all;
  }

  private static Optional<Path> existingRoot(String root) {
    Optional<Path> real = realPath(Path.of(root)).filter(Files::isDirectory);
    if (real.isEmpty()) {
      Log.warnf("host-folder root %s is not a directory: ignored", root);
    }
    return real;
  }

  private static Optional<Path> realPath(Path path) {
    try {
      return Optional.of(path.toRealPath());
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }
}
