package dev.workcell.contracts.subject;

import dev.workcell.contracts.ServiceName;
import java.util.EnumSet;
import java.util.Set;

/**
 * A request/reply subject: the record it takes, the record it answers, the service that serves it
 * (in a queue group named after the service) and the NATS users allowed to call it. The stack's NATS
 * permissions and the tables of docs/nats.md are generated from these constants
 * ({@link SubjectTable}), so a caller missing here is refused by the server, not just by convention.
 */
public record Subject<Q, R>(String name, Class<Q> request, Class<R> reply, ServiceName server, Set<NatsUser> callers) {

  public Subject {
    if (!name.matches("workcell(\\.[a-z0-9_-]+)+")) {
      throw new IllegalArgumentException("not a literal subject: " + name);
    }
    callers = Set.copyOf(callers);
  }

  /** No callers: served, but nothing on the stack may call it yet (tests on a server without users do). */
  public static <Q, R> Subject<Q, R> of(String name, Class<Q> request, Class<R> reply, ServiceName server,
      NatsUser... callers) {
    Set<NatsUser> set = EnumSet.noneOf(NatsUser.class);
    set.addAll(java.util.List.of(callers));
    return new Subject<>(name, request, reply, server, set);
  }

  public boolean callableBy(NatsUser user) {
    return callers.contains(user);
  }

  @Override
  public String toString() {
    return name;
  }
}
