package dev.workcell.sandbox.ports.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.ListPorts;
import dev.workcell.contracts.sandbox.PortStreamApi.OpenPortStream;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamAck;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamChunk;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamClose;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamWrite;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.sandbox.ports.service.OpenPortStreams;
import dev.workcell.sandbox.ports.service.PortStream;
import dev.workcell.sandbox.testing.SandboxClient;
import io.nats.client.Dispatcher;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The port-stream subjects as the gateway's /proxy uses them, over NATS, into real home sandboxes. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PortStreamHandlersTest {

  static final Actor GATEWAY = Actor.service(ServiceName.GATEWAY);
  static final int PORT = 8765;
  static final int BIG = 2 << 20;

  @Inject
  SandboxClient sandboxes;

  @Inject
  NatsConnection nats;

  @Inject
  MessageCodec codec;

  @Inject
  OpenPortStreams streams;

  SandboxRef alice;
  SandboxRef bob;

  @BeforeAll
  void homes() throws Exception {
    alice = sandboxes.newHome("alice-proxy");
    bob = sandboxes.newHome("bob-proxy");
    // Alice serves her home (with a 2 MB file) on loopback; Bob's home runs but listens nowhere.
    sandboxes.call(SandboxSubjects.PROCESS_START, new StartProcess(alice,
        "head -c " + BIG + " /dev/zero | tr '\\0' x > big.txt && echo hello > small.txt && exec python3 -m http.server "
            + PORT + " --bind 127.0.0.1", null, null, null, null, null), GATEWAY);
    sandboxes.call(SandboxSubjects.PROCESS_START, new StartProcess(bob, "sleep 600", null, null, null, null, null), GATEWAY);
    long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (sandboxes.call(SandboxSubjects.PORTS_LIST, new ListPorts(alice), GATEWAY).ports().stream().noneMatch(p -> p.port() == PORT)) {
      assertThat(System.nanoTime()).as("alice's server listens").isLessThan(end);
      Thread.sleep(100);
    }
  }

  @AfterAll
  void stop() {
    sandboxes.call(SandboxSubjects.STOP, alice);
    sandboxes.call(SandboxSubjects.STOP, bob);
  }

  /** One stream's output as the gateway sees it; acknowledges only while reading. */
  final class Client {
    final String id = UUID.randomUUID().toString().replace("-", "");
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final List<Long> seqs = new ArrayList<>();
    volatile boolean reading = true;
    volatile boolean ended;
    final Dispatcher dispatcher;

    Client() throws Exception {
      dispatcher = nats.connection().createDispatcher(message -> {
        PortStreamChunk chunk = codec.decode(message.getData(), PortStreamChunk.class);
        synchronized (this) {
          seqs.add(chunk.seq());
          if (chunk.last()) {
            ended = true;
            return;
          }
          bytes.writeBytes(chunk.data());
        }
        if (reading) {
          nats.connection().publish(SandboxSubjects.PORT_STREAM_ACK.pattern(), codec.encode(new PortStreamAck(id, chunk.data().length)));
        }
      });
      dispatcher.subscribe(SandboxSubjects.PORT_STREAM_OUTPUT.subject(id));
      nats.connection().flush(Duration.ofSeconds(5));
    }

    void send(String text) {
      sandboxes.call(SandboxSubjects.PORT_STREAM_WRITE, new PortStreamWrite(id, text.getBytes(StandardCharsets.UTF_8)), GATEWAY);
    }

    synchronized int size() {
      return bytes.size();
    }

    String untilEnd() throws InterruptedException {
      long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!ended) {
        assertThat(System.nanoTime()).as("the stream ends").isLessThan(end);
        Thread.sleep(20);
      }
      dispatcher.unsubscribe(SandboxSubjects.PORT_STREAM_OUTPUT.subject(id));
      synchronized (this) {
        for (int i = 0; i < seqs.size(); i++) {
          assertThat(seqs.get(i)).as("chunks in order, none missing").isEqualTo(i);
        }
        return bytes.toString(StandardCharsets.UTF_8);
      }
    }
  }

  @Test
  void aRequestReachesTheServerOnTheHomesLoopbackAndTheAnswerComesBackWhole() throws Exception {
    Client client = new Client();
    var opened = sandboxes.call(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(alice, client.id, PORT), GATEWAY);
    assertThat(opened.open()).isTrue();
    client.send("GET /big.txt?x=1 HTTP/1.0\r\nHost: localhost\r\n\r\n");
    String answer = client.untilEnd();
    assertThat(answer).startsWith("HTTP/1.0 200").contains("Content-Length: " + BIG);
    assertThat(answer.substring(answer.indexOf("\r\n\r\n") + 4)).hasSize(BIG).matches("x+");
    assertThat(streams.size()).as("an ended stream is forgotten").isZero();
  }

  /** A client that stops reading stops the server at one window: nothing grows anywhere. */
  @Test
  void withoutCreditTheAnswerStopsAtOneWindowAndCloseEndsIt() throws Exception {
    Client client = new Client();
    client.reading = false;
    sandboxes.call(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(alice, client.id, PORT), GATEWAY);
    client.send("GET /big.txt HTTP/1.0\r\n\r\n");
    Thread.sleep(2_000);
    int held = client.size();
    Thread.sleep(1_000);
    assertThat(client.size()).as("nothing past the window without credit").isEqualTo(held)
        .isLessThanOrEqualTo(PortStream.WINDOW).isPositive();
    var closed = sandboxes.call(SandboxSubjects.PORT_STREAM_CLOSE, new PortStreamClose(client.id), GATEWAY);
    assertThat(closed.open()).isFalse();
    client.untilEnd();
    assertThat(sandboxes.failure(SandboxSubjects.PORT_STREAM_WRITE, new PortStreamWrite(client.id, new byte[] {'x'}), GATEWAY).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
  }

  /** Bob names Alice's port number: it is looked up in Bob's own home, where nothing listens. */
  @Test
  void anotherUsersPortIsNotReachableAndAClosedPortIsRefusedAsUpstreamDoes() {
    String id = UUID.randomUUID().toString().replace("-", "");
    var refused = sandboxes.failure(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(bob, id, PORT), GATEWAY);
    assertThat(refused.code()).isEqualTo(ErrorCode.CONNECTION_REFUSED);
    assertThat(refused.getMessage()).contains("Connection refused: localhost:" + PORT);
    assertThat(sandboxes.failure(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(alice, id, PORT + 1), GATEWAY).code())
        .isEqualTo(ErrorCode.CONNECTION_REFUSED);
    SandboxRef nobody = sandboxes.newHome("nobody-proxy");
    assertThat(sandboxes.failure(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(nobody, id, PORT), GATEWAY).code())
        .as("a home that does not run is not started for it").isEqualTo(ErrorCode.CONNECTION_REFUSED);
  }

  @Test
  void badPortsIdsAndCallersAreRefused() {
    String id = UUID.randomUUID().toString().replace("-", "");
    for (int port : new int[] {0, -1, 65536}) {
      assertThat(sandboxes.failure(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(alice, id, port), GATEWAY).code())
          .isEqualTo(ErrorCode.INVALID_PORT);
    }
    assertThat(sandboxes.failure(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(alice, "short", PORT), GATEWAY).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(sandboxes.failure(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(sandboxes.shared(), id, PORT), GATEWAY).code())
        .as("task sandboxes have no /proxy").isEqualTo(ErrorCode.INVALID_REQUEST);
    Actor user = new Actor("alice-test", Actor.Role.USER);
    assertThat(sandboxes.failure(SandboxSubjects.PORT_STREAM_OPEN, new OpenPortStream(alice, id, PORT), user).code())
        .isEqualTo(ErrorCode.FORBIDDEN);
  }
}
