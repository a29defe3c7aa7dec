package dev.workcell.sandbox.messaging;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.util.function.Supplier;

/**
 * Runs blocking sandbox work (Docker calls, celld round trips) on the worker pool, off the event loop.
 * Every feature's handlers share it.
 */
public final class Offload {

  private Offload() {}

  public static <T> Uni<T> blocking(Supplier<T> work) {
    return Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
  }
}
