package dev.workcell.terminal.work.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.terminal.socket.web.InputGate;
import io.smallrye.mutiny.Uni;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The Work terminal's access check before each input (issue 20: account status, Work access, task
 * existence and ownership), without a NATS round trip in front of every keystroke (decision 0017):
 * each input that goes starts a check, and the next input goes only once a check started no
 * earlier than the previous input has passed. A keystroke thus never waits for its own check, while
 * typing at human speed (a check takes about a millisecond) waits for none; at most one input
 * reaches the shell after a revocation. A check that fails for another reason (task-service slow or
 * away) holds input until one passes: input is never let through unverified for long. {@link #tick}
 * checks between inputs too, so a revocation closes an idle session within an interval.
 */
public final class AccessGate implements InputGate {

  /** Failures that mean "no longer allowed"; anything else (a timeout) holds input until a check passes. */
  public static final Set<ErrorCode> REVOKED = Set.of(ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN,
      ErrorCode.ACCOUNT_DISABLED, ErrorCode.WORK_ACCESS_DENIED, ErrorCode.ROLE_CHANGED, ErrorCode.NOT_FOUND);

  private final Supplier<Uni<?>> check;
  private final Consumer<ErrorCode> revoked;
  private long inputs;
  /** {@link #inputs} when the check in flight started; -1: none in flight. */
  private long checkFrom = -1;
  /** The newest check passed and no input went after it started. */
  private boolean verified = true;
  private boolean closed;
  private Runnable waiting;

  /**
   * {@code check} fails when access no longer holds; {@code revoked} runs once, with the reason, when
   * a check says so. The grant was checked when the session opened, so the first input goes at once.
   */
  public AccessGate(Supplier<Uni<?>> check, Consumer<ErrorCode> revoked) {
    this.check = check;
    this.revoked = revoked;
  }

  @Override
  public boolean admit(Runnable ready) {
    synchronized (this) {
      if (closed) {
        return false;
      }
      if (verified) {
        return true;
      }
      waiting = ready;
    }
    check();
    return false;
  }

  @Override
  public void sent() {
    synchronized (this) {
      inputs++;
      verified = false;
    }
    check();
  }

  @Override
  public synchronized boolean closed() {
    return closed;
  }

  /** A check between inputs (the periodic one): a revocation is seen while nobody types. */
  public void tick() {
    check();
  }

  /** Starts a check unless one is in flight (input that went since it started waits for the next one). */
  private void check() {
    long from;
    synchronized (this) {
      if (checkFrom >= 0 || closed) {
        return;
      }
      from = inputs;
      checkFrom = from;
    }
    Uni<?> running;
    try {
      running = check.get();
    } catch (RuntimeException e) {
      running = Uni.createFrom().failure(e);
    }
    running.subscribe().with(ok -> finished(from, null), failure -> finished(from, failure));
  }

  private void finished(long from, Throwable failure) {
    ErrorCode denied = failure instanceof WorkcellException e && REVOKED.contains(e.code()) ? e.code() : null;
    Runnable ready = null;
    boolean again = false;
    synchronized (this) {
      checkFrom = -1;
      if (denied != null) {
        closed = true;
        waiting = null;
      } else if (failure == null && from == inputs) {
        verified = true;
        ready = waiting;
        waiting = null;
      } else {
        // Input went while this check ran: it needs a check of its own. After any other failure (a
        // timeout) input waits for the next tick's check rather than retrying in a tight loop.
        again = failure == null;
      }
    }
    if (denied != null) {
      revoked.accept(denied);
    } else if (ready != null) {
      ready.run();
    } else if (again) {
      check();
    }
  }
}
