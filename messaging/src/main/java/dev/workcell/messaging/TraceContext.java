package dev.workcell.messaging;

import io.smallrye.common.vertx.ContextLocals;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/** Carries the current request's traceparent on its Vert.x duplicated context. */
public final class TraceContext {

  private static final String KEY = "workcell.traceparent";

  private TraceContext() {}

  /** The traceparent to put on an outgoing message: a child of the current one, or a new trace. */
  public static String outgoing() {
    return TraceParent.childOf(current());
  }

  public static String current() {
    Context context = Vertx.currentContext();
    if (context == null || !io.smallrye.common.vertx.VertxContext.isDuplicatedContext(context)) {
      return null;
    }
    return ContextLocals.<String>get(KEY).orElse(null);
  }

  /** Must be called on a duplicated context (handlers and HTTP requests run on one). */
  public static void set(String traceparent) {
    if (TraceParent.isValid(traceparent)) {
      ContextLocals.put(KEY, traceparent);
    }
  }
}
