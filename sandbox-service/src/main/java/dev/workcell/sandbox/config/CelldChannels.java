package dev.workcell.sandbox.config;

/** Which channel reaches celld (see {@link SandboxSettings.Celld}) and where its sockets live. */
public final class CelldChannels {

  /** The socket's file name in its sandbox's directory. */
  public static final String SOCKET = "celld.sock";

  private CelldChannels() {}

  public static boolean localEngine(String dockerHost) {
    return dockerHost == null || dockerHost.isBlank() || dockerHost.startsWith("unix://");
  }

  /** Never on Kubernetes: a Pod cannot mount a directory of sandbox-service's host (celld is reached over pods/exec). */
  public static boolean usesSocket(SandboxSettings settings, DockerSettings docker) {
    if (settings.kubernetes()) {
      return false;
    }
    return switch (settings.celld().channel()) {
      case "socket" -> true;
      case "auto" -> localEngine(docker.host());
      default -> false;
    };
  }

  /** This instance's directory of socket directories: instances never share one. */
  public static String socketRoot(SandboxSettings settings) {
    String dir = settings.celld().socketDir();
    return (dir.endsWith("/") ? dir.substring(0, dir.length() - 1) : dir) + "/" + settings.instance();
  }
}
