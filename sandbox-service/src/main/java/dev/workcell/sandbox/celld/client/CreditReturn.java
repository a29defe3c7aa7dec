package dev.workcell.sandbox.celld.client;

import dev.workcell.contracts.error.WorkcellException;
import io.quarkus.logging.Log;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Returns a stream's output credit to celld in batches (decision 0017): an ack goes out once a
 * quarter of the window is due, so celld keeps at least three quarters of its credit while the
 * consumer keeps up and one ack covers many chunks; what could not be sent stays due.
 */
public final class CreditReturn {

  private final int threshold;
  private final IntConsumer send;
  private final AtomicInteger due = new AtomicInteger();

  /** {@code send} writes one ack frame of that many bytes; it may throw {@link WorkcellException}. */
  public CreditReturn(int window, IntConsumer send) {
    this.threshold = window / 4;
    this.send = send;
  }

  public void returned(int bytes) {
    int before = due.getAndUpdate(n -> n + bytes >= threshold ? 0 : n + bytes);
    int now = before + bytes;
    if (now < threshold) {
      return;
    }
    try {
      send.accept(now);
    } catch (WorkcellException e) {
      due.addAndGet(now);
      Log.debugf("ack of %d bytes not sent: %s", now, e.getMessage());
    }
  }
}
