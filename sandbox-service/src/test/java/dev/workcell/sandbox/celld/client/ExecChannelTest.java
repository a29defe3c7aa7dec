package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.runtime.SandboxNames;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With the engine on another host (a tcp DOCKER_HOST) celld cannot dial a local socket: frames go
 * over the exec's stdin/stdout instead, and the sandbox has no socket directory at all.
 */
@QuarkusTest
@TestProfile(ExecChannelTest.ExecChannel.class)
class ExecChannelTest {

  public static class ExecChannel implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.sandbox.celld.channel", "exec");
    }
  }

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Test
  void filesAndCommandsWorkOverTheExec() {
    SandboxRef ref = sandboxes.newTask("exec-channel");
    try {
      FileWritten written = sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "a.txt", "over the exec\n", null, false));
      FileContent read = sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "a.txt"));
      assertThat(read.content()).isEqualTo("over the exec\n");
      assertThat(read.version()).isEqualTo(written.version());
      CommandResult result = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref, "cat a.txt; ls /run/workcell 2>&1", 30));
      assertThat(result.stdout()).startsWith("over the exec\n").contains("No such file or directory");
      // No socket directory: only the workspace and celld's read-only volume.
      assertThat(docker.inspectContainerCmd(SandboxNames.container(ref.taskId())).exec().getMounts())
          .extracting(mount -> mount.getDestination().getPath()).containsExactlyInAnyOrder("/workspace", "/opt/workcell");
    } finally {
      sandboxes.deleteQuietly(ref);
    }
  }
}
