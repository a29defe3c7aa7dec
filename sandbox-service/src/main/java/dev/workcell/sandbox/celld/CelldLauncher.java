package dev.workcell.sandbox.celld;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxInstance;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/** Starts {@code celld serve} in a running sandbox and proves it answers before anyone uses it. */
@ApplicationScoped
public class CelldLauncher {

  private static final Duration PING_TIMEOUT = Duration.ofSeconds(10);

  private final SandboxDriver driver;
  private final SandboxSettings settings;

  public CelldLauncher(SandboxDriver driver, SandboxSettings settings) {
    this.driver = driver;
    this.settings = settings;
  }

  /** celld confined to {@code root}, the sandbox's mount point; {@code name} is for logs. */
  public CelldConnection open(String name, SandboxInstance instance, String root) {
    CelldConnection connection = new CelldConnection(name, instance.containerId());
    connection.attach(driver.exec(instance, root, command(root), connection));
    try {
      String version = CelldReplies.pongVersion(connection.call("ping", null, PING_TIMEOUT));
      Log.debugf("celld %s serving %s", version, name);
      return connection;
    } catch (WorkcellException e) {
      connection.close(e);
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "celld did not start in the sandbox of " + name + ": " + e.getMessage(), e);
    }
  }

  private List<String> command(String root) {
    return List.of(SandboxHardening.CELLD, "serve", "--root", root,
        "--max-output-chars", Integer.toString(settings.maxOutputChars()));
  }
}
