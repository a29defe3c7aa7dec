package dev.workcell.sandbox.home;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.FileEntry;
import dev.workcell.contracts.sandbox.FileList;
import dev.workcell.contracts.sandbox.KillProcess;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.ListProcesses;
import dev.workcell.contracts.sandbox.PollProcess;
import dev.workcell.contracts.sandbox.ProcessInput;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SeccompProfile;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Open Terminal homes: hardening, naming, isolation between users, confinement, persistence, no secrets inside. */
@QuarkusTest
class HomeSandboxTest {

  private static final Set<ErrorCode> REFUSALS = Set.of(ErrorCode.INVALID_PATH, ErrorCode.PATH_ESCAPE,
      ErrorCode.NOT_REGULAR_FILE, ErrorCode.NOT_FOUND, ErrorCode.NOT_A_DIRECTORY);

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Inject
  SandboxSettings settings;

  private final List<SandboxRef> homes = new java.util.ArrayList<>();

  @AfterEach
  void stopHomes() {
    // Stopped, not deleted: the runtime slots (global cap 3 in tests) are what other tests need.
    homes.forEach(home -> sandboxes.call(SandboxSubjects.STOP, home));
  }

  private SandboxRef home(String prefix) {
    SandboxRef ref = sandboxes.newHome(prefix);
    homes.add(ref);
    return ref;
  }

  @Test
  void aHomeIsHardenedNamedByTheHashOfTheWholeIdAndMountedAtHomeUser() throws Exception {
    // Two ids that share a long prefix must not share a home.
    SandboxRef ref = home("user-with-a-long-common-prefix-0123456789");
    String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(ref.homeUserId().getBytes(StandardCharsets.UTF_8)));
    // Tests run as their own instance: its homes carry the instance, so a dev stack's home of the same id is another one.
    String name = "workcell-" + settings.instance() + "-home-" + hash;
    SandboxState state = sandboxes.ensure(ref);
    assertThat(state.state()).isEqualTo("running");
    assertThat(state.taskId()).isNull();
    assertThat(state.volume()).isEqualTo(name);

    InspectContainerResponse inspect = docker.inspectContainerCmd(state.containerId()).exec();
    assertThat(inspect.getName()).isEqualTo("/" + name);
    var config = inspect.getConfig();
    var host = inspect.getHostConfig();
    // Root runs only --init, the idle sleep and celld's exec (which drops to its own user); commands are uid 1000.
    assertThat(config.getUser()).isEqualTo("0:0");
    assertThat(config.getWorkingDir()).isEqualTo(SandboxKey.HOME_DIR);
    assertThat(config.getEnv()).contains("HOME=/home/user");
    assertThat(host.getReadonlyRootfs()).isTrue();
    assertThat(host.getCapDrop()).extracting(Enum::name).containsExactly("ALL");
    assertThat(host.getSecurityOpts()).containsExactly("no-new-privileges", SeccompProfile.SECURITY_OPT);
    assertThat(host.getInit()).isTrue();
    assertThat(host.getPrivileged()).isFalse();
    assertThat(host.getMemorySwap()).isEqualTo(host.getMemory());
    assertThat(host.getPidsLimit()).isEqualTo(256L);
    assertThat(host.getTmpFs()).containsOnlyKeys("/tmp");
    assertThat(host.getBinds()).isNullOrEmpty();
    // The home volume, celld's volume and celld's socket directory read-only (see SandboxHardeningTest).
    assertThat(inspect.getMounts()).hasSize(3);
    assertThat(inspect.getMounts()).filteredOn(mount -> "/opt/workcell".equals(mount.getDestination().getPath())).singleElement()
        .satisfies(mount -> assertThat(mount.getRW()).isFalse());
    assertThat(inspect.getMounts()).filteredOn(mount -> name.equals(mount.getName())).singleElement().satisfies(mount -> {
      assertThat(mount.getName()).isEqualTo(name);
      assertThat(mount.getDestination().getPath()).isEqualTo("/home/user");
      assertThat(mount.getRW()).isTrue();
    });
    assertThat(inspect.getMounts()).filteredOn(mount -> mount.getName() == null).singleElement().satisfies(mount -> {
      assertThat(mount.getDestination().getPath()).isEqualTo("/run/workcell");
      assertThat(mount.getRW()).isFalse();
    });
    assertThat(config.getLabels())
        .containsEntry(SandboxLabels.MANAGED, "true")
        .containsEntry(SandboxLabels.HOME, hash)
        .doesNotContainKeys(SandboxLabels.TASK, SandboxLabels.OWNER);
    assertThat(docker.inspectVolumeCmd(name).exec().getLabels())
        .containsEntry(SandboxLabels.HOME, hash).doesNotContainKeys(SandboxLabels.TASK, SandboxLabels.OWNER);

    CommandResult inside = sandboxes.run(ref, "pwd; echo $HOME; id -u; touch /rootfs-probe 2>/dev/null || echo ro-root; touch ok && echo writable");
    assertThat(inside.stdout()).isEqualTo("/home/user\n/home/user\n1000\nro-root\nwritable\n");
  }

  @Test
  void onlyServicesMayNameAHome() {
    SandboxRef ref = home("forbidden");
    for (Actor actor : List.of(new Actor(ref.homeUserId(), Actor.Role.USER), new Actor("root-admin", Actor.Role.ADMIN))) {
      assertThat(sandboxes.failure(SandboxSubjects.FILES_LIST, new ListFiles(ref, ""), actor).code()).isEqualTo(ErrorCode.FORBIDDEN);
      assertThat(sandboxes.failure(SandboxSubjects.ENSURE, ref, actor).code()).isEqualTo(ErrorCode.FORBIDDEN);
    }
    assertThat(sandboxes.failure(SandboxSubjects.ENSURE, SandboxRef.home("")).code()).isEqualTo(ErrorCode.INVALID_REQUEST);
    assertThat(sandboxes.failure(SandboxSubjects.ENSURE, SandboxRef.home("x".repeat(257))).code()).isEqualTo(ErrorCode.INVALID_REQUEST);
    assertThat(sandboxes.failure(SandboxSubjects.ENSURE, SandboxRef.home("bad\nid")).code()).isEqualTo(ErrorCode.INVALID_REQUEST);
  }

  @Test
  void twoHomesAreIsolated() {
    SandboxRef a = home("alice");
    SandboxRef b = home("bob");
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(a, "secret.txt", "alice only", null, false));
    ProcessView aProcess = sandboxes.call(SandboxSubjects.PROCESS_START, new StartProcess(a, "cat", null, null, null, null));

    assertThat(sandboxes.failure(SandboxSubjects.FILES_READ, new ReadFile(b, "secret.txt")).code()).isEqualTo(ErrorCode.NOT_FOUND);
    FileList bFiles = sandboxes.call(SandboxSubjects.FILES_LIST, new ListFiles(b, ""));
    assertThat(bFiles.entries()).extracting(FileEntry::name).doesNotContain("secret.txt");
    assertThat(sandboxes.run(b, "ls /home; cat /home/user/secret.txt 2>&1; ls /workspace 2>&1 | head -1").stdout()).doesNotContain("alice only");

    assertThat(sandboxes.failure(SandboxSubjects.PROCESS_STATUS, new PollProcess(b, aProcess.id(), 0, null, null)).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(sandboxes.failure(SandboxSubjects.PROCESS_INPUT, new ProcessInput(b, aProcess.id(), "x\n")).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(sandboxes.failure(SandboxSubjects.PROCESS_KILL, new KillProcess(b, aProcess.id(), true)).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(sandboxes.call(SandboxSubjects.PROCESS_LIST, new ListProcesses(b)).processes()).isEmpty();
    // A's process is untouched.
    assertThat(sandboxes.call(SandboxSubjects.PROCESS_STATUS, new PollProcess(a, aProcess.id(), 0, null, null))
        .status()).isEqualTo("running");
    sandboxes.call(SandboxSubjects.PROCESS_KILL, new KillProcess(a, aProcess.id(), true));
  }

  @Test
  void escapesThroughAHomeAreRefused() {
    SandboxRef ref = home("escaper");
    CommandResult setup = sandboxes.run(ref, String.join(" && ",
        "mkdir -p esc",
        "ln -sfn /etc/passwd esc/passwd-link",
        "ln -sfn /proc/1/environ esc/environ-link",
        "ln -sfn /etc esc/etc-dir",
        "ln -sfn ../.. esc/up"));
    assertThat(setup.exitCode()).as(setup.stderr()).isZero();
    for (String path : List.of("../x", "/etc/passwd", "esc/passwd-link", "esc/environ-link", "esc/etc-dir/passwd", "esc/up/user/.bashrc",
        "../../etc/passwd")) {
      assertThat(sandboxes.failure(SandboxSubjects.FILES_READ, new ReadFile(ref, path)).code()).as("read %s", path).isIn(REFUSALS);
    }
    for (String path : List.of("../x", "/tmp/x", "esc/passwd-link", "esc/etc-dir/evil", "esc/up/evil")) {
      assertThat(sandboxes.failure(SandboxSubjects.FILES_WRITE, new WriteFile(ref, path, "owned", null, false)).code())
          .as("write %s", path).isIn(REFUSALS);
    }
    assertThat(sandboxes.failure(SandboxSubjects.FILES_LIST, new ListFiles(ref, "esc/etc-dir")).code()).isEqualTo(ErrorCode.PATH_ESCAPE);
  }

  @Test
  void filesSurviveAStopAndANewEnsure() {
    SandboxRef ref = home("persistent");
    String first = sandboxes.ensure(ref).containerId();
    sandboxes.call(SandboxSubjects.FILES_WRITE, new WriteFile(ref, "notes/keep.txt", "still here", null, true));
    assertThat(sandboxes.call(SandboxSubjects.STOP, ref).state()).isEqualTo("stopped");
    SandboxState again = sandboxes.ensure(ref);
    assertThat(again.state()).isEqualTo("running");
    assertThat(again.containerId()).isEqualTo(first);
    assertThat(sandboxes.call(SandboxSubjects.FILES_READ, new ReadFile(ref, "notes/keep.txt")).content())
        .isEqualTo("still here");
  }

  @Test
  void noVariableOfSandboxServiceEntersAHome() {
    SandboxRef ref = home("env");
    CommandResult result = sandboxes.call(SandboxSubjects.EXEC,
        new RunCommand(ref, "env; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f 2>/dev/null || true; done", 30));
    assertThat(result.exitCode()).isZero();
    assertThat(result.truncated()).isFalse();
    // A command carries celld's environment (and CELLD_JOB, which marks every command celld starts);
    // celld's, the init's and the idle sleep's /proc environ are out of the workload's reach (decision 0007).
    assertThat(result.stdout()).contains("CELLD_JOB=").contains("HOME=/home/user");
    List<String> names = result.stdout().lines().filter(line -> line.contains("=")).map(line -> line.substring(0, line.indexOf('='))).toList();
    assertThat(names).noneMatch(name -> name.startsWith("WORKCELL_") || name.startsWith("QUARKUS_") || name.startsWith("DOCKER_")
        || name.toUpperCase().contains("PASSWORD") || name.toUpperCase().contains("KEY") || name.toUpperCase().contains("SECRET")
        || name.toUpperCase().contains("TOKEN") || name.startsWith("JAVA_") || name.startsWith("MAVEN_"));
    for (Map.Entry<String, String> own : System.getenv().entrySet()) {
      String name = own.getKey().toUpperCase();
      boolean sensitive = name.startsWith("WORKCELL_") || name.startsWith("QUARKUS_") || name.startsWith("DOCKER_")
          || name.contains("PASSWORD") || name.contains("KEY") || name.contains("SECRET") || name.contains("TOKEN");
      if (sensitive && own.getValue().length() >= 6) {
        assertThat(result.stdout()).as("value of %s", own.getKey()).doesNotContain(own.getValue());
      }
    }
  }
}
