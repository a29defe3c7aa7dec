package dev.workcell.messaging;

import io.smallrye.mutiny.Uni;

/** Serves one request subject. Runs on a Vert.x duplicated context: never block in it. */
@FunctionalInterface
public interface RequestHandler<T, R> {
  Uni<R> handle(Envelope<T> request);
}
