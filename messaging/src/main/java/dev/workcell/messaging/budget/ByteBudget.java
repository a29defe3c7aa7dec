package dev.workcell.messaging.budget;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The bytes of content a service holds in memory at once (request bodies, file chunks, command
 * output, answers being written), with a share per user: whoever takes room before holding content
 * and gives it back when done cannot exhaust the heap, and one user flooding the service leaves
 * the rest of the budget to everyone else. A take that does not fit is refused at once with
 * {@code rate_limited} (429, Retry-After) and holds nothing; the caller drops what it would have held.
 *
 * <p>One take always fits when the service holds nothing (a single request larger than the budget
 * is capped elsewhere, by its own size limit), and one take of a user who holds nothing fits their
 * share, so a small budget still serves every request that fits it alone.
 */
public final class ByteBudget {

  /** Seconds a refused client is asked to wait; content in flight drains within about that. */
  public static final long RETRY_AFTER_SECONDS = 1;

  private final String name;
  private final long limit;
  private final long perUser;
  private final Map<String, Long> byUser = new HashMap<>();
  private long held;
  private long refused;

  /**
   * @param name what is budgeted, for messages and metrics (e.g. {@code gateway})
   * @param limit bytes the whole service may hold
   * @param perUser bytes one user may hold (at most {@code limit})
   */
  public ByteBudget(String name, long limit, long perUser) {
    if (limit <= 0 || perUser <= 0) {
      throw new IllegalArgumentException("budget " + name + ": limit and per-user share must be positive");
    }
    this.name = name;
    this.limit = limit;
    this.perUser = Math.min(perUser, limit);
  }

  /** A budget of {@code heapFraction} of this JVM's maximum heap, a user's share {@code 1/userShare} of it. */
  public static ByteBudget ofHeap(String name, double heapFraction, int userShare) {
    long limit = (long) (Runtime.getRuntime().maxMemory() * heapFraction);
    return new ByteBudget(name, limit, limit / Math.max(1, userShare));
  }

  /**
   * A service's budget as its settings give it: {@code bytes} unset is a quarter of the maximum heap,
   * {@code perUser} unset a quarter of the budget (docs/limits.md).
   */
  public static ByteBudget configured(String name, Optional<Long> bytes, Optional<Long> perUser) {
    long limit = bytes.orElse(Runtime.getRuntime().maxMemory() / 4);
    return new ByteBudget(name, limit, perUser.orElse(limit / 4));
  }

  /**
   * Takes room for {@code bytes} held on behalf of {@code user}, or refuses without taking anything.
   *
   * @throws WorkcellException {@code rate_limited} when the service or the user holds too much already
   */
  public Hold take(String user, long bytes) {
    String key = user == null || user.isBlank() ? "unknown" : user;
    long size = Math.max(0, bytes);
    synchronized (this) {
      long mine = byUser.getOrDefault(key, 0L);
      if (mine > 0 && mine + size > perUser) {
        refused++;
        throw refusal("this user already holds " + mine + " bytes in " + name + " (share " + perUser + ")");
      }
      if (held > 0 && held + size > limit) {
        refused++;
        throw refusal(name + " holds " + held + " bytes of content in flight (limit " + limit + ")");
      }
      held += size;
      byUser.put(key, mine + size);
    }
    return new Hold(key, size);
  }

  /**
   * Room for content that grows as it arrives (a model's answer as it streams), taken in steps of
   * {@link Tally#STEP} so a token does not cost a lock; refused like {@link #take} when a step does
   * not fit.
   */
  public Tally tally(String user) {
    return new Tally(user);
  }

  private static WorkcellException refusal(String why) {
    return new WorkcellException(ErrorCode.RATE_LIMITED, why + "; retry after " + RETRY_AFTER_SECONDS + " s");
  }

  private synchronized void give(String user, long bytes) {
    held -= bytes;
    long left = byUser.getOrDefault(user, 0L) - bytes;
    if (left <= 0) {
      byUser.remove(user);
    } else {
      byUser.put(user, left);
    }
  }

  public String name() {
    return name;
  }

  public long limit() {
    return limit;
  }

  public long perUser() {
    return perUser;
  }

  public synchronized long held() {
    return held;
  }

  public synchronized long available() {
    return Math.max(0, limit - held);
  }

  public synchronized long heldBy(String user) {
    return byUser.getOrDefault(user, 0L);
  }

  /** Takes refused since start. */
  public synchronized long refused() {
    return refused;
  }

  /** Less than a tenth left: the service takes small requests still, but no large one. Readiness says so. */
  public synchronized boolean exhausted() {
    return limit - held < limit / 10;
  }

  /** Room that grows with what it counts; {@link #close()} gives all of it back. Not thread-safe: one reader counts. */
  public final class Tally implements AutoCloseable {

    public static final long STEP = 64 * 1024;

    private final String user;
    private final List<Hold> holds = new ArrayList<>();
    private long counted;
    private long taken;

    private Tally(String user) {
      this.user = user;
    }

    /** Counts {@code bytes} more. @throws WorkcellException {@code rate_limited} when the next step does not fit */
    public void add(long bytes) {
      counted += Math.max(0, bytes);
      if (counted > taken) {
        Hold step = take(user, Math.max(STEP, counted - taken));
        holds.add(step);
        taken += step.bytes();
      }
    }

    public long counted() {
      return counted;
    }

    @Override
    public void close() {
      holds.forEach(Hold::close);
      holds.clear();
      taken = 0;
    }
  }

  /** Room taken for one piece of content; {@link #close()} gives it back (once, however often called). */
  public final class Hold implements AutoCloseable {

    private final String user;
    private final long bytes;
    private final AtomicBoolean open = new AtomicBoolean(true);

    private Hold(String user, long bytes) {
      this.user = user;
      this.bytes = bytes;
    }

    public long bytes() {
      return bytes;
    }

    @Override
    public void close() {
      if (open.compareAndSet(true, false)) {
        give(user, bytes);
      }
    }
  }
}
