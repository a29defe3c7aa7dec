package dev.workcell.sandbox.lifecycle.service;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxDriver;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * The disk part of a sandbox's status: its volume's size and use (decision 0010), measured in the
 * running sandbox, else the last measurement. Only the status request pays for it (one exec).
 */
@ApplicationScoped
public class SandboxDiskStatus {

  private final SandboxDriver driver;
  private final String deployment;

  public SandboxDiskStatus(SandboxDriver driver, SandboxSettings settings) {
    this.driver = driver;
    this.deployment = settings.instance();
  }

  /** {@code state} (already authorised for {@code ref}) with its disk; blocking. */
  public SandboxState withDisk(SandboxRef ref, SandboxState state) {
    SandboxKey key = SandboxKey.of(ref);
    Optional<SandboxInstance> instance = driver.find(key);
    instance.ifPresent(found -> Ownership.require(found, key, deployment));
    driver.findVolume(key).ifPresent(volume -> Ownership.require(volume, key, deployment));
    return driver.diskUsage(key, instance)
        .map(disk -> new SandboxState(state.taskId(), state.state(), state.containerId(), state.volume(), state.network(), disk))
        .orElse(state);
  }
}
