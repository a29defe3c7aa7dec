package dev.workcell.sandbox.process.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.TerminalApi.OpenTerminal;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalAck;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalChunk;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalClose;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalInput;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalResize;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.sandbox.process.service.TerminalSession;
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

/** The terminal subjects as terminal-service uses them, over NATS, into a real home sandbox. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TerminalHandlersTest {

  static final Actor TERMINAL = Actor.service(ServiceName.TERMINAL);

  @Inject
  SandboxClient sandboxes;

  @Inject
  NatsConnection nats;

  @Inject
  MessageCodec codec;

  SandboxRef home;

  @BeforeAll
  void home() {
    home = sandboxes.newHome("termnats");
  }

  @AfterAll
  void stop() {
    sandboxes.call(SandboxSubjects.STOP, home);
  }

  /** One session's output as terminal-service sees it; acknowledges only when told to read. */
  final class Listener {
    final String id = UUID.randomUUID().toString().replace("-", "");
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final List<Long> seqs = new ArrayList<>();
    volatile boolean reading = true;
    volatile Integer exitCode;
    final Dispatcher dispatcher;

    Listener() throws Exception {
      dispatcher = nats.connection().createDispatcher(message -> {
        TerminalChunk chunk = codec.decode(message.getData(), TerminalChunk.class);
        synchronized (this) {
          seqs.add(chunk.seq());
          if (chunk.last()) {
            exitCode = chunk.exitCode();
            return;
          }
          bytes.writeBytes(chunk.data());
        }
        if (reading) {
          nats.connection().publish(SandboxSubjects.TERMINAL_ACK.pattern(),
              codec.encode(new TerminalAck(id, chunk.data().length)));
        }
      });
      dispatcher.subscribe(SandboxSubjects.TERMINAL_OUTPUT.subject(id));
      nats.connection().flush(Duration.ofSeconds(5));
    }

    synchronized String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }

    synchronized int size() {
      return bytes.size();
    }

    void await(String marker) throws InterruptedException {
      long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!text().contains(marker)) {
        assertThat(System.nanoTime()).as("waiting for %s in %s", marker, text()).isLessThan(end);
        Thread.sleep(20);
      }
    }

    void type(String keys) {
      sandboxes.call(SandboxSubjects.TERMINAL_INPUT, new TerminalInput(id, keys.getBytes(StandardCharsets.UTF_8)), TERMINAL);
    }
  }

  @Test
  void aTerminalOverNatsEchoesResizesAndReportsItsExitInOrder() throws Exception {
    Listener screen = new Listener();
    var opened = sandboxes.call(SandboxSubjects.TERMINAL_OPEN, new OpenTerminal(home, screen.id, 90, 20), TERMINAL);
    assertThat(opened.pid()).isPositive();
    screen.type("echo in=$(pwd) size=$(stty size)\r");
    screen.await("in=/home/user size=20 90");
    sandboxes.call(SandboxSubjects.TERMINAL_RESIZE, new TerminalResize(screen.id, 120, 40), TERMINAL);
    screen.type("echo now=$(stty size)\r");
    screen.await("now=40 120");
    screen.type("exit 7\r");
    long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (screen.exitCode == null && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    assertThat(screen.exitCode).isEqualTo(7);
    synchronized (screen) {
      for (int i = 0; i < screen.seqs.size(); i++) {
        assertThat(screen.seqs.get(i)).as("chunks in order, none missing").isEqualTo(i);
      }
    }
    assertThat(sandboxes.failure(SandboxSubjects.TERMINAL_INPUT, new TerminalInput(screen.id, new byte[] {'x'}), TERMINAL).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
    screen.dispatcher.unsubscribe(SandboxSubjects.TERMINAL_OUTPUT.subject(screen.id));
  }

  /** Without acks the output stops at one window; ^C gets through; close ends the session. */
  @Test
  void withoutCreditOutputStopsAtOneWindowAndCtrlCStillWorks() throws Exception {
    Listener screen = new Listener();
    screen.reading = false;
    sandboxes.call(SandboxSubjects.TERMINAL_OPEN, new OpenTerminal(home, screen.id, null, null), TERMINAL);
    screen.type("yes flood-line\r");
    Thread.sleep(2_000);
    int held = screen.size();
    Thread.sleep(1_000);
    assertThat(screen.size()).as("nothing past the window without credit").isEqualTo(held)
        .isLessThanOrEqualTo(TerminalSession.WINDOW);
    screen.type("\u0003");
    screen.type("echo stopped-$((6*7))\r");
    screen.reading = true;
    nats.connection().publish(SandboxSubjects.TERMINAL_ACK.pattern(), codec.encode(new TerminalAck(screen.id, held)));
    screen.await("stopped-42");
    var closed = sandboxes.call(SandboxSubjects.TERMINAL_CLOSE, new TerminalClose(screen.id), TERMINAL);
    assertThat(closed.open()).isFalse();
  }

  @Test
  void onlyServicesOpenTerminalsAndSessionIdsMustBeTokens() {
    assertThat(sandboxes.failure(SandboxSubjects.TERMINAL_OPEN, new OpenTerminal(home, "short", null, null), TERMINAL).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    Actor user = new Actor("alice-test", Actor.Role.USER);
    assertThat(sandboxes.failure(SandboxSubjects.TERMINAL_OPEN,
        new OpenTerminal(sandboxes.shared(), UUID.randomUUID().toString().replace("-", ""), null, null), user).code())
        .isEqualTo(ErrorCode.FORBIDDEN);
  }
}
