package dev.workcell.sandbox.runtime;

import java.util.List;

/**
 * The hardening profile of every sandbox. It is not a policy field and no policy can weaken it.
 * Bump {@link #VERSION} on any change here: the version is part of the policy hash, so existing
 * sandboxes are recreated with the new profile on their next use.
 */
public final class SandboxHardening {

  /** 7: every sandbox has a CPU weight (cpu shares) and a cpu limit only below the host's cores. */
  public static final int VERSION = 7;

  /** The workload's identity: every command's, the owner of every file celld makes. */
  public static final String USER = "1000:1000";
  /**
   * The container's user. Root, because only then does Docker give an exec as root the added
   * capabilities (with a non-root container user every exec gets none); only --init, the idle sleep
   * and celld's exec run as it.
   */
  public static final String CONTAINER_USER = "0:0";
  /** celld's own identity, out of the workload's reach (decision 0007): exec'd as root, it takes this on before serving. */
  public static final String CELLD_USER = "999:999";
  /** A task's mount point; a home mounts its volume at {@link SandboxKey#HOME_DIR} instead (see SandboxSpec). */
  public static final String WORKSPACE = "/workspace";
  public static final String TMP = "/tmp";
  public static final List<String> CAP_DROP = List.of("ALL");
  /** Kept by celld alone (commands start as {@link #USER}, leftovers get killed); a command's execve drops them. */
  public static final List<String> CAP_ADD = List.of("KILL", "SETGID", "SETUID");
  /** Workcell's own seccomp profile (the engine's default without io_uring), see {@link SeccompProfile}. */
  public static final List<String> SECURITY_OPT = List.of("no-new-privileges", SeccompProfile.SECURITY_OPT);
  public static final boolean READ_ONLY_ROOT = true;
  public static final boolean INIT = true;
  public static final boolean PRIVILEGED = false;
  public static final String IPC_MODE = "private";
  /** The container's only process besides celld execs: an idle sleeper reaped by --init. */
  public static final List<String> ENTRYPOINT = List.of("sleep", "infinity");
  /**
   * Where every sandbox sees celld's volume, read-only: celld never has to be in the workload image,
   * and nothing in the sandbox can replace it.
   */
  public static final String CELLD_DIR = "/opt/workcell";
  public static final String CELLD = CELLD_DIR + "/celld";
  /** Where a sandbox sees its celld socket directory (read-only: celld may only dial in, never plant a file). */
  public static final String CELLD_MOUNT = "/run/workcell";

  private SandboxHardening() {}

  /**
   * Options of the /tmp tmpfs. {@code exec} is explicit because Docker defaults tmpfs to noexec,
   * which breaks tool caches while adding nothing: /workspace is executable anyway.
   */
  public static String tmpOptions(long sizeBytes) {
    return "rw,exec,nosuid,nodev,size=" + sizeBytes;
  }

  /** Everything above in one line, hashed into the policy label. */
  public static String describe() {
    return "v=" + VERSION + ";user=" + USER + ";container-user=" + CONTAINER_USER + ";tmp=" + TMP + ";capdrop=" + CAP_DROP + ";capadd=" + CAP_ADD
        + ";secopt=[no-new-privileges, seccomp=sha256:" + SeccompProfile.SHA256 + "]" + ";ro=" + READ_ONLY_ROOT + ";init=" + INIT + ";privileged=" + PRIVILEGED
        + ";ipc=" + IPC_MODE + ";entrypoint=" + ENTRYPOINT + ";celldmount=" + CELLD_MOUNT + ":ro"
        + ";celld=" + CELLD_DIR + ":ro;celld-user=" + CELLD_USER;
  }
}
