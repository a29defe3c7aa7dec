package dev.workcell.contracts.subject;

import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.Streams.StreamSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What each NATS user may publish and subscribe to, derived from {@link SubjectTable}: publish only
 * the subjects it may call and the pushes it publishes, subscribe only to the subjects it serves, the
 * pushes it listens to and its own reply inboxes; JetStream API calls only on the streams it writes or
 * reads. Replies go back through the server's allow_responses, so no user may publish to inboxes.
 * A caller may also ask the liveness subjects of the services it calls, and each service answers its
 * own (decision 0024: a request whose responder died is answered at once, not at its deadline).
 */
public final class NatsPermissions {

  private NatsPermissions() {}

  public record Grants(NatsUser user, List<String> publish, List<String> subscribe, boolean managesStreams) {}

  public static List<Grants> all() {
    List<Grants> all = new ArrayList<>();
    for (NatsUser user : NatsUser.values()) {
      all.add(of(user));
    }
    return all;
  }

  public static Grants of(NatsUser user) {
    Set<String> publish = new LinkedHashSet<>();
    Set<String> subscribe = new LinkedHashSet<>();
    Set<ServiceName> called = new LinkedHashSet<>();
    boolean serves = false;
    for (Subject<?, ?> subject : SubjectTable.requests()) {
      if (subject.callableBy(user)) {
        publish.add(subject.name());
        called.add(subject.server());
      }
      if (user.service() == subject.server()) {
        subscribe.add(subject.name());
        serves = true;
      }
    }
    called.forEach(service -> publish.add(Subjects.alivePattern(service)));
    if (serves) {
      subscribe.add(Subjects.alivePattern(user.service()));
    }
    boolean managesStreams = false;
    for (Push<?> push : SubjectTable.pushes()) {
      boolean publishes = push.publishers().contains(user);
      boolean listens = push.listeners().contains(user);
      if (publishes) {
        publish.add(push.pattern());
      }
      if (listens) {
        subscribe.add(push.pattern());
      }
      if (push.stream() != null && (publishes || listens)) {
        publish.addAll(user == NatsUser.OPERATOR ? List.of() : streamClient(push.stream()));
      }
      managesStreams |= push.stream() != null && publishes;
    }
    if (managesStreams) {
      for (StreamSpec stream : Streams.ALL) {
        publish.add("$JS.API.STREAM.INFO." + stream.name());
        publish.add("$JS.API.STREAM.CREATE." + stream.name());
        publish.add("$JS.API.STREAM.UPDATE." + stream.name());
      }
    }
    if (user == NatsUser.OPERATOR) {
      publish.addAll(OPERATOR_JETSTREAM);
    }
    subscribe.add(user.inboxPrefix() + ">");
    return new Grants(user, List.copyOf(publish), List.copyOf(subscribe), managesStreams);
  }

  /** Read-only JetStream: list and inspect streams and consumers; no create, update, delete or purge. */
  private static final List<String> OPERATOR_JETSTREAM = List.of("$JS.API.INFO", "$JS.API.STREAM.NAMES",
      "$JS.API.STREAM.LIST", "$JS.API.STREAM.INFO.*", "$JS.API.CONSUMER.NAMES.*", "$JS.API.CONSUMER.LIST.*",
      "$JS.API.CONSUMER.INFO.*.*");

  /** What a client that writes or reads one stream needs: look it up, run its own consumers, read a last message. */
  private static List<String> streamClient(String stream) {
    return List.of("$JS.API.INFO", "$JS.API.STREAM.NAMES", "$JS.API.STREAM.INFO." + stream,
        "$JS.API.STREAM.MSG.GET." + stream, "$JS.API.DIRECT.GET." + stream, "$JS.API.DIRECT.GET." + stream + ".>",
        "$JS.API.CONSUMER.CREATE." + stream, "$JS.API.CONSUMER.CREATE." + stream + ".>",
        "$JS.API.CONSUMER.DURABLE.CREATE." + stream + ".*", "$JS.API.CONSUMER.INFO." + stream + ".*",
        "$JS.API.CONSUMER.DELETE." + stream + ".*", "$JS.API.CONSUMER.MSG.NEXT." + stream + ".*",
        "$JS.ACK." + stream + ".>", "$JS.FC." + stream + ".>");
  }
}
