package dev.workcell.sandbox.celld.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.config.CelldChannels;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.ExecStream;
import dev.workcell.sandbox.runtime.RequestQueueBudget;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxSpec;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts {@code celld serve} in a running sandbox and proves it answers before anyone uses it. With
 * the socket channel celld dials back over its sandbox's socket directory and the exec only carries
 * the token, stderr and the end of celld's life; otherwise frames travel over the exec itself.
 */
@ApplicationScoped
public class CelldLauncher {

  private static final Duration PING_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final SandboxDriver driver;
  private final SandboxSettings settings;
  private final RequestQueueBudget queues;

  public CelldLauncher(SandboxDriver driver, SandboxSettings settings, RequestQueueBudget queues) {
    this.driver = driver;
    this.settings = settings;
    this.queues = queues;
  }

  /** celld confined to the sandbox's mount point; {@code name} is for logs. */
  public CelldConnection open(String name, SandboxInstance instance, SandboxSpec spec) {
    CelldConnection connection = new CelldConnection(name, instance.containerId());
    Optional<Path> socketDir = spec.celldSocketDir(instance.name());
    try {
      connection.attach(socketDir.isPresent()
          ? overSocket(name, instance, spec.workdir(), socketDir.get(), connection)
          : driver.exec(instance, spec.workdir(), command(spec.workdir(), List.of()), connection));
      JsonNode pong = connection.call(new CelldRequest.Ping(), PING_TIMEOUT);
      String version = CelldReplies.pongVersion(pong);
      connection.bulkRequests(CelldReplies.bulkRequests(pong));
      requireShell(connection, spec);
      Log.debugf("celld %s serving %s over %s", version, name, socketDir.isPresent() ? "its socket" : "the exec");
      return connection;
    } catch (WorkcellException e) {
      connection.close(e);
      String cause = imageFailure(instance).orElse(e.getMessage());
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "celld did not start in the sandbox of " + name + ": " + cause, e);
    }
  }

  private ExecStream overSocket(String name, SandboxInstance instance, String root, Path dir, CelldConnection connection) {
    try (CelldSocket socket = CelldSocket.listen(dir)) {
      String inSandbox = SandboxHardening.CELLD_MOUNT + "/" + CelldChannels.SOCKET;
      ExecStream exec = driver.exec(instance, root, command(root, List.of("--connect", inSandbox)), connection.execSideListener());
      try {
        exec.write(socket.tokenLine());
        SocketChannel channel = socket.accept(CONNECT_TIMEOUT);
        return SocketFrameStream.start(name, channel, exec, connection, queues.share());
      } catch (IOException | RuntimeException e) {
        exec.close();
        throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "celld's socket failed: " + e.getMessage() + connection.stderrSuffix(), e);
      }
    }
  }

  /** The engine's word on an image that cannot run a sandbox at all; never hides the original failure. */
  private Optional<String> imageFailure(SandboxInstance instance) {
    try {
      return driver.startFailure(instance);
    } catch (WorkcellException e) {
      return Optional.empty();
    }
  }

  /**
   * Any image may run a sandbox, but commands need its shell (celld runs {@code /bin/bash -c}, else
   * {@code /bin/sh -c}): one without fails here, at start, with a message that says so.
   */
  private static void requireShell(CelldConnection connection, SandboxSpec spec) {
    String detail;
    try {
      JsonNode result = connection.call(new CelldRequest.Exec(":", 10, null, null), PING_TIMEOUT);
      if (result != null && result.path("exitCode").asInt(-1) == 0) {
        return;
      }
      detail = "exit " + (result == null ? "?" : result.path("exitCode").asText()) + " " + (result == null ? "" : result.path("stderr").asText());
    } catch (WorkcellException e) {
      detail = e.getMessage();
    }
    throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "image " + spec.image()
        + " has no usable /bin/sh (a sandbox image needs a POSIX shell; bash is used when present): " + detail.strip());
  }

  private List<String> command(String root, List<String> extra) {
    List<String> command = new ArrayList<>(List.of(SandboxHardening.CELLD, "serve", "--root", root,
        "--max-output-chars", Integer.toString(settings.maxOutputChars())));
    if (driver.celldSwitchesUser()) {
      command.addAll(List.of("--user", SandboxHardening.CELLD_USER, "--workload-user", SandboxHardening.USER));
    }
    command.addAll(extra);
    return command;
  }
}
