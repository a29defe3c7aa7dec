package dev.workcell.sandbox.runtime;

import dev.workcell.sandbox.config.ResourceQuantities;
import dev.workcell.sandbox.config.SandboxSettings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes of requests written to a sandbox but not yet taken by its celld. A stopped celld reads
 * nothing, so without a cap its requests pile up in our heap: each sandbox may queue
 * {@code celld.queue-limit}, all together {@code celld.queue-total} (an eighth of the heap by default).
 */
@ApplicationScoped
public class RequestQueueBudget {

  private final long perSandbox;
  private final long total;
  private final AtomicLong used = new AtomicLong();

  @Inject
  public RequestQueueBudget(SandboxSettings settings) {
    this(ResourceQuantities.memoryBytes(settings.celld().queueLimit()).orElseThrow(),
        settings.celld().queueTotal().map(total -> ResourceQuantities.memoryBytes(total).orElseThrow())
            .orElse(Runtime.getRuntime().maxMemory() / 8));
  }

  public RequestQueueBudget(long perSandbox, long total) {
    this.perSandbox = perSandbox;
    this.total = total;
  }

  /** A new, empty share for one connection to one celld. */
  public Share share() {
    return new Share();
  }

  /** Bytes queued across every sandbox right now. */
  public long used() {
    return used.get();
  }

  public long total() {
    return total;
  }

  /** One sandbox's part of the budget. */
  public final class Share {

    private long queued;

    private Share() {}

    /**
     * Reserves {@code bytes} or throws without reserving anything. An empty queue always takes one
     * request (a frame may be larger than the per-sandbox limit), still within the service-wide cap.
     */
    public synchronized void take(long bytes) throws RequestQueueFull {
      if (queued > 0 && queued + bytes > perSandbox) {
        throw new RequestQueueFull("the sandbox has " + queued + " bytes of requests queued that celld has not read (limit "
            + perSandbox + ")");
      }
      long now = used.addAndGet(bytes);
      if (now > total) {
        used.addAndGet(-bytes);
        throw new RequestQueueFull("requests queued for sandboxes that do not read them fill the service-wide limit ("
            + total + " bytes)");
      }
      queued += bytes;
    }

    /** Gives back {@code bytes} that celld took (never more than this share holds). */
    public synchronized void give(long bytes) {
      long released = Math.min(bytes, queued);
      queued -= released;
      used.addAndGet(-released);
    }

    /** Gives back everything: the connection is gone, its queue dropped. */
    public synchronized void giveAll() {
      give(queued);
    }

    public synchronized long queued() {
      return queued;
    }
  }
}
