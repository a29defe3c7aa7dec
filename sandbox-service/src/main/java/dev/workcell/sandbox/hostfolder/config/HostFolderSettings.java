package dev.workcell.sandbox.hostfolder.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/**
 * Host-folder workspaces (decision 0023): a task whose {@code /workspace} is a folder of the host,
 * bind-mounted, instead of a volume of its own. Off unless enabled, and then only inside the roots.
 */
@ConfigMapping(prefix = "workcell.sandbox.host-folders")
public interface HostFolderSettings {

  /** Off by default: a deployment turns it on (WORKCELL_SANDBOX_HOST_FOLDERS_ENABLED or seed 004's WORK_HOST_WORKSPACES_ENABLED). */
  @WithDefault("false")
  boolean enabled();

  /**
   * The host directories a host folder must lie in (their real paths, links resolved), comma-separated
   * (WORKCELL_SANDBOX_HOST_FOLDERS_ROOTS), or colon-separated as seed 004's WORK_HOST_WORKSPACE_ROOTS.
   * Unset: the server user's home directory, as seed 004 says.
   */
  Optional<List<String>> roots();

  /** Refused beside the built-in denylist (system directories, the state folder, the Docker socket). */
  Optional<List<String>> denied();
}
