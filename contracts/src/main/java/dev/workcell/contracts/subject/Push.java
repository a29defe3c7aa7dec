package dev.workcell.contracts.subject;

import java.util.EnumSet;
import java.util.Set;

/**
 * A pushed subject (no reply): its message record, who may publish it and who may listen. The
 * pattern has one {@code *} per variable token ({@code workcell.sandbox.exec.output.*}); JetStream
 * pushes are stored in a stream and read through consumers ({@link #stream}).
 */
public record Push<M>(String pattern, Class<M> message, Set<NatsUser> publishers, Set<NatsUser> listeners, String stream) {

  public Push {
    publishers = Set.copyOf(publishers);
    listeners = Set.copyOf(listeners);
  }

  public static <M> Push<M> core(String pattern, Class<M> message, Set<NatsUser> publishers, Set<NatsUser> listeners) {
    return new Push<>(pattern, message, publishers, listeners, null);
  }

  public static <M> Push<M> stored(String pattern, Class<M> message, String stream, Set<NatsUser> publishers,
      Set<NatsUser> listeners) {
    return new Push<>(pattern, message, publishers, listeners, stream);
  }

  public static Set<NatsUser> by(NatsUser user, NatsUser... more) {
    return EnumSet.of(user, more);
  }

  /** The concrete subject: each {@code *} replaced by the next token, which must be a valid subject token. */
  public String subject(String... tokens) {
    StringBuilder out = new StringBuilder();
    int next = 0;
    for (String part : pattern.split("\\.")) {
      if (!out.isEmpty()) {
        out.append('.');
      }
      if (part.equals("*")) {
        String token = next < tokens.length ? tokens[next++] : null;
        if (token == null || !token.matches("[A-Za-z0-9_-]+")) {
          throw new IllegalArgumentException("not a subject token: " + token);
        }
        out.append(token);
      } else {
        out.append(part);
      }
    }
    if (next != tokens.length) {
      throw new IllegalArgumentException(pattern + " takes " + next + " tokens, not " + tokens.length);
    }
    return out.toString();
  }
}
