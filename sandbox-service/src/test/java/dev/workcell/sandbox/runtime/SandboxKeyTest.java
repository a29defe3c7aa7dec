package dev.workcell.sandbox.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import org.junit.jupiter.api.Test;

/** Names of runtime resources: two deployments on one engine must never name the same home. */
class SandboxKeyTest {

  // sha256("alice")
  private static final String ALICE = "2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90";

  @Test
  void theDefaultDeploymentKeepsThePlainHomeName() {
    SandboxKey alice = SandboxKey.of(SandboxRef.home("alice"));
    assertThat(alice.container(SandboxNames.DEFAULT_INSTANCE)).isEqualTo("workcell-home-" + ALICE);
    assertThat(alice.volume(SandboxNames.DEFAULT_INSTANCE)).isEqualTo("workcell-home-" + ALICE);
  }

  @Test
  void anotherDeploymentNamesTheSameUsersHomeWithItsInstance() {
    SandboxKey alice = SandboxKey.of(SandboxRef.home("alice"));
    assertThat(alice.container("stack-9480")).isEqualTo("workcell-stack-9480-home-" + ALICE)
        .isNotEqualTo(alice.container(SandboxNames.DEFAULT_INSTANCE));
    assertThat(alice.volume("stack-9480")).isEqualTo(alice.container("stack-9480"));
  }

  @Test
  void taskNamesNeedNoInstanceBecauseTaskIdsAreRandom() {
    SandboxKey task = SandboxKey.of(new SandboxRef("t-1", "owner-1"));
    assertThat(task.container("stack-9480")).isEqualTo("workcell-task-t-1").isEqualTo(task.container(SandboxNames.DEFAULT_INSTANCE));
    assertThat(task.volume("stack-9480")).isEqualTo("workcell-ws-t-1");
  }
}
