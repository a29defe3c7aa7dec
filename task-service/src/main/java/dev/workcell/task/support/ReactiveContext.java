package dev.workcell.task.support;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;

/**
 * Hibernate Reactive needs a safe Vert.x duplicated context. NATS handlers get one from the
 * responder; start-up work (and tests) get one here.
 */
@ApplicationScoped
public class ReactiveContext {

  private final Vertx vertx;

  public ReactiveContext(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Runs {@code work} on a fresh safe duplicated context. */
  public <T> Uni<T> run(Supplier<Uni<T>> work) {
    return Uni.createFrom().emitter(emitter -> {
      Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
      VertxContextSafetyToggle.setContextSafe(context, true);
      context.runOnContext(ignored -> {
        Uni<T> uni;
        try {
          uni = work.get();
        } catch (RuntimeException e) {
          uni = Uni.createFrom().failure(e);
        }
        uni.subscribe().with(emitter::complete, emitter::fail);
      });
    });
  }

  /**
   * Delivers {@code uni}'s outcome back on the caller's Vert.x context: a NATS reply arrives on a
   * jnats thread, where the next database step could not run.
   */
  public static <T> Uni<T> backOnContext(Uni<T> uni) {
    return Uni.createFrom().deferred(() -> {
      Context context = Vertx.currentContext();
      if (context == null) {
        return uni;
      }
      return uni.emitOn(command -> context.runOnContext(ignored -> command.run()));
    });
  }
}
