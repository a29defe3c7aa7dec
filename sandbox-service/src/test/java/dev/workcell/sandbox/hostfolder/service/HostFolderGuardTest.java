package dev.workcell.sandbox.hostfolder.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each refusal of a host folder, on real directories and links (decision 0023). */
class HostFolderGuardTest {

  private static final Actor ADMIN = new Actor("a", Actor.Role.ADMIN);

  @TempDir
  Path tmp;

  private Path root;
  private Path outside;
  private Path state;
  private HostFolderGuard guard;

  @BeforeEach
  void folders() throws IOException {
    root = Files.createDirectories(tmp.resolve("roots/projects"));
    outside = Files.createDirectories(tmp.resolve("elsewhere"));
    state = Files.createDirectories(root.resolve("team/.workcell"));
    Files.createDirectories(root.resolve("engine"));
    Files.createDirectories(state.resolve("logs"));
    // A root that is a prefix as text is not a parent: /…/projects-old is not inside /…/projects.
    Files.createDirectories(tmp.resolve("roots/projects-old"));
    Files.createSymbolicLink(root.resolve("escape"), outside);
    Files.createSymbolicLink(root.resolve("etc"), Path.of("/etc"));
    Files.createSymbolicLink(root.resolve("everything"), Path.of("/"));
    Files.createSymbolicLink(root.resolve("state-link"), state);
    guard = guard(true, false);
  }

  private HostFolderGuard guard(boolean enabled, boolean kubernetes) {
    return new HostFolderGuard(enabled, kubernetes, List.of(root.toString(), tmp.resolve("no-such-root").toString()),
        HostFolderGuard.denylist(List.of(), Optional.of(state.toString()), "unix://" + root.resolve("engine/docker.sock"),
            "/var/lib/workcell/disks", "/run/workcell/cells"));
  }

  private static ErrorCode refusal(HostFolderGuard guard, Actor actor, String folder) {
    try {
      guard.require(actor, folder);
    } catch (WorkcellException e) {
      return e.code();
    }
    throw new AssertionError(folder + " was accepted");
  }

  /** Each folder, asked for by an admin, is refused with this code. */
  private void refused(ErrorCode code, String... folders) {
    for (String folder : folders) {
      assertThat(refusal(guard, ADMIN, folder)).as(folder).isEqualTo(code);
    }
  }

  @Test
  void aFolderInsideARootIsItsRealPath() throws IOException {
    Path app = Files.createDirectories(root.resolve("app"));
    Files.createSymbolicLink(root.resolve("app-link"), app);

    assertThat(guard.require(ADMIN, app.toString())).isEqualTo(app.toRealPath());
    assertThat(guard.require(ADMIN, root.resolve("app-link").toString())).isEqualTo(app.toRealPath());
    assertThat(guard.require(ADMIN, root.resolve("app/../app").toString())).isEqualTo(app.toRealPath());
  }

  @Test
  void offByDefaultAndOnKubernetes() throws IOException {
    String app = Files.createDirectories(root.resolve("app")).toString();

    assertThat(refusal(guard(false, false), ADMIN, app)).isEqualTo(ErrorCode.HOST_FOLDERS_DISABLED);
    assertThat(refusal(guard(true, true), ADMIN, app)).isEqualTo(ErrorCode.HOST_FOLDERS_UNSUPPORTED);
  }

  @Test
  void onlyAnAdmin() throws IOException {
    String app = Files.createDirectories(root.resolve("app")).toString();

    assertThat(refusal(guard, new Actor("u", Actor.Role.USER), app)).isEqualTo(ErrorCode.FORBIDDEN);
    assertThat(refusal(guard, null, app)).isEqualTo(ErrorCode.FORBIDDEN);
  }

  @Test
  void aMissingFolderAFileOrARelativePath() throws IOException {
    Path file = Files.writeString(root.resolve("notes.txt"), "x");

    refused(ErrorCode.HOST_FOLDER_NOT_FOUND, root.resolve("missing").toString());
    refused(ErrorCode.HOST_FOLDER_NOT_FOUND, file.toString());
    refused(ErrorCode.INVALID_REQUEST, "projects/app");
    refused(ErrorCode.INVALID_REQUEST, "");
  }

  @Test
  void outsideEveryRootEvenThroughALinkOrDotDot() {
    refused(ErrorCode.HOST_FOLDER_OUTSIDE_ROOTS, outside.toString(), root.resolve("escape").toString(),
        root.resolve("../../elsewhere").toString(), tmp.resolve("roots/projects-old").toString());
  }

  @Test
  void systemDirectoriesTheStateFolderAndTheDockerSocketEvenThroughALink() {
    // /var holds /var/lib/docker: mounting it would hand the sandbox the engine's state.
    refused(ErrorCode.HOST_FOLDER_DENIED, root.resolve("etc").toString(), root.resolve("everything").toString(), "/",
        "/usr/share", "/var");
    refused(ErrorCode.HOST_FOLDER_DENIED, state.toString(), state.resolve("..").toString(),
        root.resolve("state-link").toString(), state.resolve("logs").toString());
    // DOCKER_HOST's socket lies in engine/ (that folder would give the sandbox the engine); the root holds both.
    refused(ErrorCode.HOST_FOLDER_DENIED, root.resolve("engine").toString(), root.toString());
  }

  /** Seed 004's names are refused wherever they are, even inside a root. */
  @Test
  void credentialToolAndDependencyFoldersByName() throws IOException {
    for (String name : List.of(".ssh", ".gnupg", ".aws", ".config", ".kube", ".docker", ".claude", "node_modules")) {
      Path folder = Files.createDirectories(root.resolve("app").resolve(name).resolve("inner"));
      refused(ErrorCode.HOST_FOLDER_DENIED, folder.getParent().toString(), folder.toString());
    }
    Files.createSymbolicLink(root.resolve("keys"), root.resolve("app/.ssh"));
    refused(ErrorCode.HOST_FOLDER_DENIED, root.resolve("keys").toString());
    assertThat(guard.require(ADMIN, root.resolve("app").toString())).isEqualTo(root.resolve("app").toRealPath());
  }

  /**
   * Before each container create the stored folder is checked again without an actor (the admin rule
   * was the creator's): a folder swapped for a link to /etc since, or host folders turned off, refuse.
   */
  @Test
  void theRecheckBeforeAMountSeesTheFolderAsItIsNow() throws IOException {
    Path app = Files.createDirectories(root.resolve("app"));
    assertThat(guard.recheck(app.toString())).isEqualTo(app.toRealPath());

    Files.delete(app);
    Files.createSymbolicLink(app, Path.of("/etc"));
    assertThatThrownBy(() -> guard.recheck(app.toString())).isInstanceOfSatisfying(WorkcellException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.HOST_FOLDER_DENIED));
    assertThatThrownBy(() -> guard(false, false).recheck(root.toString())).isInstanceOfSatisfying(WorkcellException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.HOST_FOLDERS_DISABLED));
  }

  @Test
  void offeredToAnAdminOnlyWhenEnabledOnDocker() {
    assertThat(guard.offeredTo(ADMIN)).isTrue();
    assertThat(guard.offeredTo(new Actor("u", Actor.Role.USER))).isFalse();
    assertThat(guard(false, false).offeredTo(ADMIN)).isFalse();
    assertThat(guard(true, true).offeredTo(ADMIN)).isFalse();
  }
}
