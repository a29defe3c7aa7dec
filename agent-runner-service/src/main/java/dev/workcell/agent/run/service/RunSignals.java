package dev.workcell.agent.run.service;

import dev.workcell.agent.tool.client.CommandCanceller;
import dev.workcell.agent.tool.service.CommandWatch;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * What the outside tells one driven run while it runs: that it ended in task-service (cancel,
 * lease lost, access revoked), or that something it may wait for changed (an approval decided, a
 * message posted). Ending stops whatever the run is doing right then: the model stream (its thread
 * is interrupted, which aborts the HTTP exchange) or the command in flight (EXEC_CANCEL).
 */
public final class RunSignals implements CommandWatch {

  /** How a run ended outside the runner. */
  public record Ended(RunState state, String reason) {}

  private static final Duration COMMAND_GRACE = Duration.ofSeconds(2);

  private final RunRef ref;
  private final CommandCanceller commands;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private volatile Ended ended;
  private Thread streaming;
  private SandboxRef commandSandbox;
  private String commandId;
  private Thread commandThread;
  private long wakeups;
  // Set by task-service's push of a posted message. The claim's context holds every message posted
  // before it, and the control subject is subscribed before the claim, so a run starts without one.
  private final AtomicBoolean messageNotice = new AtomicBoolean();

  public RunSignals(RunRef ref, CommandCanceller commands) {
    this.ref = ref;
    this.commands = commands;
  }

  public RunRef ref() {
    return ref;
  }

  /** Non-null once the run ended elsewhere; the runner then stops and records nothing more. */
  public Ended ended() {
    return ended;
  }

  /** The run ended in task-service: stop the stream or the command now. Only the first call counts. */
  public void end(RunState state, String reason) {
    SandboxRef sandbox;
    String execId;
    lock.lock();
    try {
      if (ended != null) {
        return;
      }
      ended = new Ended(state, reason);
      if (streaming != null) {
        streaming.interrupt();
      }
      sandbox = commandSandbox;
      execId = commandId;
      wakeups++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    if (execId != null) {
      Thread.ofVirtual().name("exec-cancel-" + execId).start(() -> stopCommand(sandbox, execId));
    }
  }

  /**
   * EXEC_CANCEL, after which the command's own request fails cancelled. If it is still waited for a
   * grace later (sandbox-service could not stop it), the run stops waiting anyway: the command's own
   * timeout still bounds it in the sandbox.
   */
  private void stopCommand(SandboxRef sandbox, String execId) {
    commands.cancel(sandbox, execId);
    try {
      Thread.sleep(COMMAND_GRACE);
    } catch (InterruptedException e) {
      return;
    }
    lock.lock();
    try {
      if (execId.equals(commandId) && commandThread != null) {
        commandThread.interrupt();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Something the run may be waiting for changed (approval decided, message posted). */
  public void wake() {
    lock.lock();
    try {
      wakeups++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** task-service pushed that the owner posted a message: the next round asks for pending messages. */
  public void messagePosted() {
    messageNotice.set(true);
    wake();
  }

  /**
   * Takes the notice of posted messages. Call it before asking task-service, so a message posted
   * while the ask is on its way (its push arriving after this) is asked for by the next round.
   */
  public boolean takeMessageNotice() {
    return messageNotice.getAndSet(false);
  }

  /** True while a pushed message notice waits for the next round's ask. */
  public boolean messageNoticed() {
    return messageNotice.get();
  }

  /** Waits up to {@code timeout}, less when woken or ended: the polling fallback's pause. */
  public void pause(Duration timeout) {
    lock.lock();
    try {
      long seen = wakeups;
      long nanos = timeout.toNanos();
      while (seen == wakeups && ended == null && nanos > 0) {
        nanos = changed.awaitNanos(nanos);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.unlock();
    }
  }

  /** Runs a model round on this thread; an end meanwhile interrupts it (aborting the stream). */
  public <T> T streaming(Supplier<T> round) {
    lock.lock();
    try {
      if (ended != null) {
        throw new RunEndedElsewhere();
      }
      streaming = Thread.currentThread();
    } finally {
      lock.unlock();
    }
    try {
      return round.get();
    } finally {
      lock.lock();
      try {
        streaming = null;
      } finally {
        lock.unlock();
      }
      // Only this window could be interrupted by end(); the flag must not leak into later calls.
      Thread.interrupted();
    }
  }

  @Override
  public void started(SandboxRef sandbox, String execId) {
    boolean cancelNow;
    lock.lock();
    try {
      commandSandbox = sandbox;
      commandId = execId;
      commandThread = Thread.currentThread();
      cancelNow = ended != null;
    } finally {
      lock.unlock();
    }
    if (cancelNow) {
      Thread.ofVirtual().start(() -> stopCommand(sandbox, execId));
    }
  }

  @Override
  public void finished(String execId) {
    lock.lock();
    try {
      if (execId.equals(commandId)) {
        commandId = null;
        commandSandbox = null;
        commandThread = null;
      }
    } finally {
      lock.unlock();
    }
    if (ended != null) {
      Thread.interrupted(); // a late stopCommand interrupt must not leak into later calls
    }
  }

  /** Thrown to leave the loop at once when the run already ended elsewhere. */
  public static final class RunEndedElsewhere extends RuntimeException {
    public RunEndedElsewhere() {
      super("the run ended elsewhere", null, false, false);
    }
  }
}
