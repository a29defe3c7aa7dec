package dev.workcell.contracts.sandbox;

import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.subject.NatsUser;
import dev.workcell.contracts.subject.Push;
import dev.workcell.contracts.subject.Subject;

/**
 * sandbox-service subjects (request/reply, queue group "sandbox"). Every request names the task and
 * carries the acting account in headers; sandbox-service checks the owner label on every resource.
 */
public final class SandboxSubjects {

  private static final String P = "workcell.sandbox.";

  /**
   * Start (or reuse after re-verifying) the task's sandbox; counts against runtime admission. A new
   * container takes the task's policy from task-service ({@code workcell.task.runtime.spec}); an
   * existing one keeps the policy it was created with until it is recreated.
   */
  public static final Subject<SandboxRef, SandboxState> ENSURE =
      Subject.of(P + "ensure", SandboxRef.class, SandboxState.class, ServiceName.SANDBOX);
  public static final Subject<SandboxRef, SandboxState> STATUS =
      Subject.of(P + "status", SandboxRef.class, SandboxState.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  /** Stop the container; the workspace volume stays. */
  public static final Subject<SandboxRef, SandboxState> STOP =
      Subject.of(P + "stop", SandboxRef.class, SandboxState.class, ServiceName.SANDBOX, NatsUser.TASK);
  /** Destroy and recreate the container with the task's current policy, keeping the volume. */
  public static final Subject<SandboxRef, SandboxState> RECREATE =
      Subject.of(P + "recreate", SandboxRef.class, SandboxState.class, ServiceName.SANDBOX);
  /** Remove container and volume (task deletion); replies only after both are gone. */
  public static final Subject<SandboxRef, SandboxState> DELETE =
      Subject.of(P + "delete", SandboxRef.class, SandboxState.class, ServiceName.SANDBOX, NatsUser.TASK);
  public static final Subject<ListSandboxes, SandboxList> LIST =
      Subject.of(P + "list", ListSandboxes.class, SandboxList.class, ServiceName.SANDBOX);

  /**
   * Runtime slots ("leases"): a task's slot is held by what uses its sandbox — a run
   * ({@link HoldRuntime} → {@link RuntimeHold}, renewed while it runs, may wait in line), an
   * operation in flight, a verified preview — and released when the last holder ends; a sandbox
   * left without one stops after the release grace. Leases are rebuilt from what runs after a restart.
   */
  public static final Subject<HoldRuntime, RuntimeHold> LEASE_HOLD =
      Subject.of(P + "lease.hold", HoldRuntime.class, RuntimeHold.class, ServiceName.SANDBOX, NatsUser.AGENT_RUNNER);
  /** Ends a hold or a wait in line ({@link ReleaseRuntime} → {@link RuntimeHold}). */
  public static final Subject<ReleaseRuntime, RuntimeHold> LEASE_RELEASE =
      Subject.of(P + "lease.release", ReleaseRuntime.class, RuntimeHold.class, ServiceName.SANDBOX, NatsUser.AGENT_RUNNER);
  /** Caps and current use ({@link RuntimeUsageQuery} → {@link RuntimeUsage}): capabilities and the door check of new runs. */
  public static final Subject<RuntimeUsageQuery, RuntimeUsage> RUNTIME_USAGE =
      Subject.of(P + "runtime.usage", RuntimeUsageQuery.class, RuntimeUsage.class, ServiceName.SANDBOX, NatsUser.GATEWAY);

  // Workspace files (paths relative to /workspace; see FileEntry and the request records).
  public static final Subject<ListFiles, FileList> FILES_LIST =
      Subject.of(P + "files.list", ListFiles.class, FileList.class, ServiceName.SANDBOX, NatsUser.GATEWAY, NatsUser.AGENT_RUNNER);
  public static final Subject<StatFile, FileEntry> FILES_STAT =
      Subject.of(P + "files.stat", StatFile.class, FileEntry.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<ReadFile, FileContent> FILES_READ =
      Subject.of(P + "files.read", ReadFile.class, FileContent.class, ServiceName.SANDBOX, NatsUser.GATEWAY, NatsUser.AGENT_RUNNER);
  /** Atomic replace; {@code expectedVersion} turns it into a compare-and-swap ({@code conflict}). */
  public static final Subject<WriteFile, FileWritten> FILES_WRITE =
      Subject.of(P + "files.write", WriteFile.class, FileWritten.class, ServiceName.SANDBOX, NatsUser.GATEWAY, NatsUser.AGENT_RUNNER);
  public static final Subject<DeleteFile, FileChanged> FILES_DELETE =
      Subject.of(P + "files.delete", DeleteFile.class, FileChanged.class, ServiceName.SANDBOX, NatsUser.GATEWAY, NatsUser.AGENT_RUNNER);
  public static final Subject<MoveFile, FileChanged> FILES_MOVE =
      Subject.of(P + "files.move", MoveFile.class, FileChanged.class, ServiceName.SANDBOX, NatsUser.GATEWAY, NatsUser.AGENT_RUNNER);
  public static final Subject<SearchFiles, SearchResult> FILES_SEARCH =
      Subject.of(P + "files.search", SearchFiles.class, SearchResult.class, ServiceName.SANDBOX, NatsUser.AGENT_RUNNER);
  public static final Subject<MakeDirectory, FileChanged> FILES_MKDIR =
      Subject.of(P + "files.mkdir", MakeDirectory.class, FileChanged.class, ServiceName.SANDBOX, NatsUser.GATEWAY);

  /** Raw bytes of any file, in chunks ({@link ReadBytes} → {@link FileBytes}). */
  public static final Subject<ReadBytes, FileBytes> FILES_READ_BYTES =
      Subject.of(P + "files.read_bytes", ReadBytes.class, FileBytes.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  /** Atomic replace with raw bytes ({@link WriteBytes} → {@link FileWritten}); uploads. */
  public static final Subject<WriteBytes, FileWritten> FILES_WRITE_BYTES =
      Subject.of(P + "files.write_bytes", WriteBytes.class, FileWritten.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  /** A file of any size in parts ({@link WritePart} → {@link FileWritten}); restores from the mirror. */
  public static final Subject<WritePart, FileWritten> FILES_WRITE_PART =
      Subject.of(P + "files.write_part", WritePart.class, FileWritten.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  /** Regular-expression or literal search with an include glob ({@link GrepFiles} → {@link GrepResult}). */
  public static final Subject<GrepFiles, GrepResult> FILES_GREP =
      Subject.of(P + "files.grep", GrepFiles.class, GrepResult.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  /** Files and directories by glob pattern ({@link GlobFiles} → {@link GlobResult}). */
  public static final Subject<GlobFiles, GlobResult> FILES_GLOB =
      Subject.of(P + "files.glob", GlobFiles.class, GlobResult.class, ServiceName.SANDBOX, NatsUser.GATEWAY);

  /** Run one command to completion ({@link RunCommand} → {@link CommandResult}). */
  public static final Subject<RunCommand, CommandResult> EXEC =
      Subject.of(P + "exec", RunCommand.class, CommandResult.class, ServiceName.SANDBOX, NatsUser.GATEWAY, NatsUser.AGENT_RUNNER);
  /**
   * Cancel a running {@link RunCommand} by its {@code execId} ({@link CancelExec} → {@link ExecCancelled}):
   * TERM, KILL after the grace, every leftover process killed; the EXEC request then fails {@code cancelled}.
   */
  public static final Subject<CancelExec, ExecCancelled> EXEC_CANCEL =
      Subject.of(P + "exec.cancel", CancelExec.class, ExecCancelled.class, ServiceName.SANDBOX, NatsUser.AGENT_RUNNER);
  /**
   * Live output of a running {@link RunCommand} that carries an {@code execId} (core NATS, no reply):
   * {@link ExecOutput} chunks on {@code workcell.sandbox.exec.output.<execId>}, in production order per stream,
   * at most the command's output cap per stream. The final {@link CommandResult} stays the record of
   * truth; execIds should be unguessable, since the subject carries nothing else.
   */
  public static final Push<ExecOutput> EXEC_OUTPUT = Push.core(P + "exec.output.*", ExecOutput.class,
      Push.by(NatsUser.SANDBOX), java.util.Set.of());

  /**
   * Background processes (the Open Terminal model): a command keeps running after the request; its
   * output is kept bounded and polled by offset. Processes live in their sandbox's celld, so a
   * process id of another sandbox is simply {@code not_found}.
   */
  public static final Subject<StartProcess, ProcessView> PROCESS_START =
      Subject.of(P + "process.start", StartProcess.class, ProcessView.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<PollProcess, ProcessView> PROCESS_STATUS =
      Subject.of(P + "process.status", PollProcess.class, ProcessView.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<ProcessInput, ProcessView> PROCESS_INPUT =
      Subject.of(P + "process.input", ProcessInput.class, ProcessView.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<KillProcess, ProcessView> PROCESS_KILL =
      Subject.of(P + "process.kill", KillProcess.class, ProcessView.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<ListProcesses, ProcessList> PROCESS_LIST =
      Subject.of(P + "process.list", ListProcesses.class, ProcessList.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  /** {@link ListPorts} → {@link PortList}; services, home sandboxes only (Open Terminal's GET /ports). No running home: no ports. */
  public static final Subject<ListPorts, PortList> PORTS_LIST =
      Subject.of(P + "ports.list", ListPorts.class, PortList.class, ServiceName.SANDBOX, NatsUser.GATEWAY);

  /**
   * Interactive terminals ({@link TerminalApi}), called by terminal-service only. Input, resize and close
   * never queue behind output, so ^C gets through a flood. Session ids are known to the
   * sandbox-service instance that opened them (one instance per stack; see docs/nats.md).
   */
  public static final Subject<TerminalApi.OpenTerminal, TerminalApi.TerminalOpened> TERMINAL_OPEN =
      Subject.of(P + "terminal.open", TerminalApi.OpenTerminal.class, TerminalApi.TerminalOpened.class, ServiceName.SANDBOX, NatsUser.TERMINAL);
  public static final Subject<TerminalApi.TerminalInput, TerminalApi.TerminalState> TERMINAL_INPUT =
      Subject.of(P + "terminal.input", TerminalApi.TerminalInput.class, TerminalApi.TerminalState.class, ServiceName.SANDBOX, NatsUser.TERMINAL);
  public static final Subject<TerminalApi.TerminalResize, TerminalApi.TerminalState> TERMINAL_RESIZE =
      Subject.of(P + "terminal.resize", TerminalApi.TerminalResize.class, TerminalApi.TerminalState.class, ServiceName.SANDBOX, NatsUser.TERMINAL);
  public static final Subject<TerminalApi.TerminalClose, TerminalApi.TerminalState> TERMINAL_CLOSE =
      Subject.of(P + "terminal.close", TerminalApi.TerminalClose.class, TerminalApi.TerminalState.class, ServiceName.SANDBOX, NatsUser.TERMINAL);
  /** A session's output (core NATS; the credit window bounds what is in flight). */
  public static final Push<TerminalApi.TerminalChunk> TERMINAL_OUTPUT = Push.core(P + "terminal.output.*",
      TerminalApi.TerminalChunk.class, Push.by(NatsUser.SANDBOX), Push.by(NatsUser.TERMINAL));
  /** Credit and keepalive from terminal-service (no reply: a lost ack only slows, the next one carries on). */
  public static final Push<TerminalApi.TerminalAck> TERMINAL_ACK = Push.core(P + "terminal.ack",
      TerminalApi.TerminalAck.class, Push.by(NatsUser.TERMINAL), Push.by(NatsUser.SANDBOX));

  /**
   * Open Terminal's /proxy ({@link PortStreamApi}): a connection to a port inside the caller's own
   * home sandbox, for the gateway only. Stream ids are known to the sandbox-service instance that
   * opened them, as terminal session ids.
   */
  public static final Subject<PortStreamApi.OpenPortStream, PortStreamApi.PortStreamState> PORT_STREAM_OPEN =
      Subject.of(P + "tcp.open", PortStreamApi.OpenPortStream.class, PortStreamApi.PortStreamState.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<PortStreamApi.PortStreamWrite, PortStreamApi.PortStreamState> PORT_STREAM_WRITE =
      Subject.of(P + "tcp.write", PortStreamApi.PortStreamWrite.class, PortStreamApi.PortStreamState.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<PortStreamApi.PortStreamClose, PortStreamApi.PortStreamState> PORT_STREAM_CLOSE =
      Subject.of(P + "tcp.close", PortStreamApi.PortStreamClose.class, PortStreamApi.PortStreamState.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  /** A stream's output (core NATS; the credit window bounds what is in flight). */
  public static final Push<PortStreamApi.PortStreamChunk> PORT_STREAM_OUTPUT = Push.core(P + "tcp.out.*",
      PortStreamApi.PortStreamChunk.class, Push.by(NatsUser.SANDBOX), Push.by(NatsUser.GATEWAY));
  /** Credit and keepalive from the gateway. */
  public static final Push<PortStreamApi.PortStreamAck> PORT_STREAM_ACK = Push.core(P + "tcp.ack",
      PortStreamApi.PortStreamAck.class, Push.by(NatsUser.GATEWAY), Push.by(NatsUser.SANDBOX));

  /** Git state of the workspace ({@link GitQuery} → {@link GitStatus} / {@link GitDiff}); {@code not_a_repository} without one. */
  public static final Subject<GitQuery, GitStatus> GIT_STATUS =
      Subject.of(P + "git.status", GitQuery.class, GitStatus.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<GitQuery, GitDiff> GIT_DIFF =
      Subject.of(P + "git.diff", GitQuery.class, GitDiff.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  /** Git writes ({@link GitChange}) → the {@link GitStatus} after them; every git invocation is hardened (see sandbox-service's GitShell). */
  public static final Subject<GitChange.InitRepository, GitStatus> GIT_INIT =
      Subject.of(P + "git.init", GitChange.InitRepository.class, GitStatus.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<GitChange.StagePaths, GitStatus> GIT_STAGE =
      Subject.of(P + "git.stage", GitChange.StagePaths.class, GitStatus.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<GitChange.CommitStaged, GitStatus> GIT_COMMIT =
      Subject.of(P + "git.commit", GitChange.CommitStaged.class, GitStatus.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<GitChange.CreateBranch, GitStatus> GIT_BRANCH_CREATE =
      Subject.of(P + "git.branch.create", GitChange.CreateBranch.class, GitStatus.class, ServiceName.SANDBOX, NatsUser.GATEWAY);
  public static final Subject<GitChange.SwitchBranch, GitStatus> GIT_SWITCH =
      Subject.of(P + "git.switch", GitChange.SwitchBranch.class, GitStatus.class, ServiceName.SANDBOX, NatsUser.GATEWAY);

  /** The task's web preview; refused with {@code network_disabled} when the policy has no network. */
  public static final Subject<StartPreview, PreviewState> PREVIEW_START =
      Subject.of(P + "preview.start", StartPreview.class, PreviewState.class, ServiceName.SANDBOX, NatsUser.GATEWAY, NatsUser.AGENT_RUNNER);
  public static final Subject<SandboxRef, PreviewState> PREVIEW_STOP =
      Subject.of(P + "preview.stop", SandboxRef.class, PreviewState.class, ServiceName.SANDBOX, NatsUser.GATEWAY, NatsUser.AGENT_RUNNER);
  public static final Subject<SandboxRef, PreviewState> PREVIEW_STATUS =
      Subject.of(P + "preview.status", SandboxRef.class, PreviewState.class, ServiceName.SANDBOX, NatsUser.PREVIEW_PROXY);

  /**
   * Checks a host folder a new task asks for (decision 0023) and answers its real path; task-service
   * asks with the caller's actor, its role read from the database. Refusals: {@code host_folders_disabled},
   * {@code host_folders_unsupported}, {@code forbidden}, {@code host_folder_not_found},
   * {@code host_folder_denied}, {@code host_folder_outside_roots}.
   */
  public static final Subject<CheckHostFolder, HostFolder> HOST_FOLDER_CHECK =
      Subject.of(P + "host_folder.check", CheckHostFolder.class, HostFolder.class, ServiceName.SANDBOX, NatsUser.TASK);

  private SandboxSubjects() {}

  /** A host folder as asked for: an absolute path, links not yet resolved. */
  public record CheckHostFolder(String folder) {}

  /** The folder's real path (every link resolved), the one stored with the task and bind-mounted. */
  public record HostFolder(String realPath) {}

  /**
   * Names a sandbox: a task's (with its owner, which must match the sandbox's owner label), or an
   * Open Terminal user's home ({@code homeUserId}: the caller's {@code X-User-Id}, whole; sandbox and
   * volume names derive from a hash of it). Only service actors (the gateway) may name a home.
   */
  public record SandboxRef(String taskId, String ownerId, String homeUserId) {

    public SandboxRef(String taskId, String ownerId) {
      this(taskId, ownerId, null);
    }

    public static SandboxRef home(String userId) {
      return new SandboxRef(null, null, userId);
    }

    public boolean isHome() {
      return homeUserId != null;
    }
  }

  /**
   * {@code state}: absent, created, running, stopped. {@code disk}: the volume's size and use (only
   * {@link #STATUS} fills it; null elsewhere and when there is no volume).
   */
  public record SandboxState(String taskId, String state, String containerId, String volume, boolean network, DiskUsage disk) {

    public SandboxState(String taskId, String state, String containerId, String volume, boolean network) {
      this(taskId, state, containerId, volume, network, null);
    }
  }
}
