package dev.workcell.sandbox.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Before and after the whole test run: no container, volume or network of the tests is left. */
public class SandboxCleanupResource implements QuarkusTestResourceLifecycleManager {

  @Override
  public Map<String, String> start() {
    TestDocker.cleanAll();
    return Map.of();
  }

  @Override
  public void stop() {
    TestDocker.cleanAll();
  }
}
