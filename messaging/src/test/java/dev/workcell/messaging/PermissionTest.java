package dev.workcell.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Streams;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.ping.Ping;
import dev.workcell.contracts.ping.Pong;
import dev.workcell.contracts.subject.NatsPermissions;
import dev.workcell.contracts.subject.NatsUser;
import dev.workcell.contracts.subject.Push;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.subject.SubjectTable;
import dev.workcell.testing.PrivateNatsServer;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.JetStreamApiException;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stack's NATS users, exactly as the launcher writes them (bin/lib/nats-users.sh with the generated
 * permissions), on a real nats-server: for every user and every subject of the table, a publish and a
 * subscription are refused by the server exactly where the subject table does not allow them.
 */
class PermissionTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern VIOLATION = Pattern.compile("Permissions Violation for (Publish|Subscription) to \"?([^\"\\s]+)\"?");
  private static final PrivateNatsServer SERVER = new PrivateNatsServer();
  private static String url;

  @BeforeAll
  static void start() throws Exception {
    url = SERVER.startWith(launcherAuthorization());
    try (Connection task = connect(NatsUser.TASK, new Violations())) {
      // task-service writes streams: it may create them (as at every connect on the stack).
      var management = task.jetStreamManagement();
      for (Streams.StreamSpec spec : Streams.ALL) {
        management.addStream(StreamConfiguration.builder().name(spec.name()).subjects(spec.subjects())
            .storageType(StorageType.Memory).build());
      }
    }
  }

  @AfterAll
  static void stop() {
    SERVER.stop();
  }

  /** The launcher's authorization block, rendered by bash with a known password per user. */
  private static String launcherAuthorization() throws IOException, InterruptedException {
    Process bash = new ProcessBuilder("bash", "-c",
        "set -euo pipefail; wc_secret() { printf 'pw-%s' \"$1\"; }; source bin/lib/nats-users.sh; wc_nats_authorization")
        .directory(ROOT.toFile()).redirectErrorStream(true).start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bash.waitFor()).as(out).isZero();
    return out;
  }

  private static Connection connect(NatsUser user, Violations violations) throws IOException, InterruptedException {
    Options options = new Options.Builder().server(url).userInfo(user.id(), "pw-nats-" + user.id())
        .inboxPrefix(user.inboxPrefix()).errorListener(violations).connectionTimeout(Duration.ofSeconds(5)).build();
    return Nats.connect(options);
  }

  /** Every subject the table knows, as a concrete subject (wildcard tokens filled), plus JetStream administration. */
  private static List<String> universe() {
    List<String> all = new ArrayList<>();
    SubjectTable.requests().forEach(subject -> all.add(subject.name()));
    for (Push<?> push : SubjectTable.pushes()) {
      all.add(push.pattern().replace("*", "t1"));
    }
    for (Streams.StreamSpec stream : Streams.ALL) {
      for (String api : List.of("STREAM.INFO.", "STREAM.CREATE.", "STREAM.UPDATE.", "STREAM.DELETE.", "STREAM.PURGE.",
          "CONSUMER.NAMES.", "CONSUMER.DURABLE.CREATE.%s.agent-runner", "CONSUMER.DELETE.%s.agent-runner",
          "CONSUMER.INFO.%s.agent-runner")) {
        all.add("$JS.API." + (api.contains("%s") ? api.formatted(stream.name()) : api + stream.name()));
      }
    }
    all.add("$JS.API.STREAM.NAMES");
    all.add("$JS.API.ACCOUNT.PURGE.x");
    all.add("_INBOX.task.x");
    for (ServiceName service : ServiceName.values()) {
      all.add(Subjects.alive(service, "i1"));
    }
    all.add("workcell.nothing.here");
    return all;
  }

  @Test
  void everyUserMayPublishAndSubscribeExactlyWhatTheTableAllows() throws Exception {
    List<String> subjects = universe();
    for (NatsUser user : NatsUser.values()) {
      NatsPermissions.Grants grants = NatsPermissions.of(user);
      Violations violations = new Violations();
      try (Connection connection = connect(user, violations)) {
        for (String subject : subjects) {
          connection.publish(subject, new byte[] {'{', '}'});
          connection.flush(Duration.ofSeconds(2));
          var subscription = connection.subscribe(subject);
          connection.flush(Duration.ofSeconds(2));
          subscription.unsubscribe();
        }
        // Another user's replies: never readable.
        for (NatsUser other : NatsUser.values()) {
          if (other != user) {
            connection.subscribe(other.inboxPrefix() + ">");
          }
        }
        connection.flush(Duration.ofSeconds(2));
        violations.settle();
      }
      Set<String> refusedPublish = new TreeSet<>();
      Set<String> refusedSubscribe = new TreeSet<>();
      for (String subject : subjects) {
        if (!matchesAny(grants.publish(), subject)) {
          refusedPublish.add(subject);
        }
        if (!matchesAny(grants.subscribe(), subject)) {
          refusedSubscribe.add(subject);
        }
      }
      for (NatsUser other : NatsUser.values()) {
        if (other != user) {
          refusedSubscribe.add(other.inboxPrefix() + ">");
        }
      }
      assertThat(violations.publish).as("publishes the server refused to %s", user.id()).isEqualTo(refusedPublish);
      assertThat(violations.subscribe).as("subscriptions the server refused to %s", user.id()).isEqualTo(refusedSubscribe);
    }
  }

  @Test
  void aGatewayCannotCallTheRunnersSubjectsWhileAgentRunnerCan() throws Exception {
    Subject<?, ?> transition = dev.workcell.contracts.task.TaskSubjects.RUNNER_TRANSITION;
    try (Connection task = connect(NatsUser.TASK, new Violations())) {
      var dispatcher = task.createDispatcher(message -> task.publish(message.getReplyTo(), "ok".getBytes(StandardCharsets.UTF_8)));
      dispatcher.subscribe(transition.name(), "task");
      task.flush(Duration.ofSeconds(2));

      Violations gatewayViolations = new Violations();
      try (Connection gateway = connect(NatsUser.GATEWAY, gatewayViolations);
          Connection runner = connect(NatsUser.AGENT_RUNNER, new Violations())) {
        Message answer = runner.request(transition.name(), "{}".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5));
        assertThat(answer).isNotNull();
        assertThat(new String(answer.getData(), StandardCharsets.UTF_8)).isEqualTo("ok");

        assertThat(gateway.request(transition.name(), "{}".getBytes(StandardCharsets.UTF_8), Duration.ofMillis(800))).isNull();
        gatewayViolations.settle();
        assertThat(gatewayViolations.publish).contains(transition.name());
      }
    }
  }

  @Test
  void theOperatorReadsStreamsAndWatchesRunsButAdministersNothing() throws Exception {
    Violations violations = new Violations();
    try (Connection operator = connect(NatsUser.OPERATOR, violations)) {
      var management = operator.jetStreamManagement();
      assertThat(management.getStreamNames()).contains(Streams.RUN_EVENTS.name(), Streams.RUN_REQUESTS.name());
      assertThat(management.getStreamInfo(Streams.RUN_EVENTS.name()).getConfiguration().getSubjects())
          .containsExactly("workcell.run.events.*.*");
      assertThat(management.getConsumerNames(Streams.RUN_REQUESTS.name())).isNotNull();

      var events = operator.subscribe("workcell.run.events.t1.>");
      operator.flush(Duration.ofSeconds(2));
      try (Connection runner = connect(NatsUser.AGENT_RUNNER, new Violations())) {
        runner.publish("workcell.run.events.t1.r1", "{}".getBytes(StandardCharsets.UTF_8));
        runner.flush(Duration.ofSeconds(2));
      }
      assertThat(events.nextMessage(Duration.ofSeconds(5))).as("a run event reaches the operator").isNotNull();

      assertThatThrownBy(() -> management.deleteStream(Streams.RUN_EVENTS.name()))
          .isInstanceOfAny(JetStreamApiException.class, IOException.class, RuntimeException.class);
      assertThatThrownBy(() -> management.purgeStream(Streams.RUN_REQUESTS.name()))
          .isInstanceOfAny(JetStreamApiException.class, IOException.class, RuntimeException.class);
      operator.publish("workcell.task.tasks.delete", "{}".getBytes(StandardCharsets.UTF_8));
      operator.flush(Duration.ofSeconds(2));
      violations.settle();
      assertThat(violations.publish).contains("$JS.API.STREAM.DELETE." + Streams.RUN_EVENTS.name(),
          "$JS.API.STREAM.PURGE." + Streams.RUN_REQUESTS.name(), "workcell.task.tasks.delete");
    }
    try (Connection task = connect(NatsUser.TASK, new Violations())) {
      assertThat(task.jetStreamManagement().getStreamInfo(Streams.RUN_EVENTS.name())).as("the stream is still there").isNotNull();
    }
  }

  /**
   * Decision 0024 under the launcher's users: a responder's accept and its reply both reach the
   * caller (two responses to one inbox), the caller may probe the instance's liveness subject, and
   * a responder that dies mid-request is reported as service_unavailable long before the deadline.
   */
  @Test
  void anAcceptItsReplyAndALivenessProbePassTheStacksPermissions() throws Exception {
    var ping = Subjects.ping(ServiceName.SANDBOX);
    var operator = new Actor("operator", Actor.Role.SERVICE);
    Vertx vertx = Vertx.vertx();
    try (TestBus cli = bus(vertx, NatsUser.CLI)) {
      try (TestBus slow = bus(vertx, NatsUser.SANDBOX)) {
        slow.responder.serve(ping, request -> Uni.createFrom()
            .item(new Pong("sandbox", "slow", "test", 0)).onItem().delayIt().by(Duration.ofMillis(2500)));
        slow.connection.connection().flush(Duration.ofSeconds(2)); // subscribed before the cli asks
        // Long enough for probes of the live instance while it works.
        var pong = cli.requester.request(ping, new Ping("test"), operator, Duration.ofSeconds(60))
            .await().atMost(Duration.ofSeconds(20));
        assertThat(pong.instanceId()).isEqualTo("slow");
      }
      TestBus dying = bus(vertx, NatsUser.SANDBOX);
      var handling = new CountDownLatch(1);
      dying.responder.serve(ping, request -> {
        handling.countDown();
        return Uni.createFrom().nothing();
      });
      dying.connection.connection().flush(Duration.ofSeconds(2));
      var answer = cli.requester.request(ping, new Ping("test"), operator, Duration.ofSeconds(60))
          .subscribeAsCompletionStage();
      assertThat(handling.await(10, TimeUnit.SECONDS)).isTrue();
      dying.connection.connection().flush(Duration.ofSeconds(2)); // its accept is on the wire
      dying.close();
      assertThatThrownBy(() -> answer.get(20, TimeUnit.SECONDS))
          .hasCauseInstanceOf(WorkcellException.class)
          .satisfies(e -> assertThat(((WorkcellException) e.getCause()).code())
              .isEqualTo(ErrorCode.SERVICE_UNAVAILABLE));
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get();
    }
  }

  private static TestBus bus(Vertx vertx, NatsUser user) throws Exception {
    TestBus bus = new TestBus(vertx, user.service() == null ? "gateway" : user.id(),
        TestBus.settings(url, user.id(), "pw-nats-" + user.id(), false));
    assertThat(bus.connection.connected()).as("%s connected", user.id()).isTrue();
    return bus;
  }

  /** NATS subject matching: {@code *} one token, {@code >} the rest. */
  static boolean matchesAny(List<String> patterns, String subject) {
    for (String pattern : patterns) {
      String[] p = pattern.split("\\.");
      String[] s = subject.split("\\.");
      boolean match = true;
      for (int i = 0; i < p.length && match; i++) {
        if (p[i].equals(">")) {
          if (s.length > i) {
            return true;
          }
          match = false;
          break;
        }
        match = i < s.length && (p[i].equals("*") || p[i].equals(s[i]));
      }
      if (match && p.length == s.length) {
        return true;
      }
    }
    return false;
  }

  /** Permission violations the server reported to one connection, by kind and subject. */
  static final class Violations implements ErrorListener {
    final Set<String> publish = new ConcurrentSkipListSet<>();
    final Set<String> subscribe = new ConcurrentSkipListSet<>();
    private volatile long last = System.nanoTime();

    @Override
    public void errorOccurred(Connection conn, String error) {
      Matcher matcher = VIOLATION.matcher(error);
      if (matcher.find()) {
        (matcher.group(1).equals("Publish") ? publish : subscribe).add(matcher.group(2));
        last = System.nanoTime();
      }
    }

    /** Waits until no violation arrived for half a second (they are reported asynchronously). */
    void settle() throws InterruptedException {
      do {
        Thread.sleep(200);
      } while (System.nanoTime() - last < 500_000_000L);
    }
  }
}
