package dev.workcell.sandbox.process.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.testing.SandboxClient;
import jakarta.inject.Inject;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Interactive terminals in a real home sandbox through sandbox-service's celld client. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TerminalSessionsTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  TerminalSessions terminals;

  SandboxRef home;

  @BeforeAll
  void home() {
    home = sandboxes.newHome("terms");
  }

  @AfterAll
  void stop() {
    sandboxes.call(SandboxSubjects.STOP, home);
  }

  /** Collects output; acknowledges it unless told to play a reader that has stopped reading. */
  static final class Screen implements TerminalOutput {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final AtomicBoolean reading = new AtomicBoolean(true);
    volatile TerminalSession session;
    int unacknowledged;

    @Override
    public synchronized void output(byte[] data) {
      bytes.writeBytes(data);
      unacknowledged += data.length;
      if (reading.get() && session != null) {
        session.acknowledge(unacknowledged);
        unacknowledged = 0;
      }
    }

    synchronized String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }

    synchronized int size() {
      return bytes.size();
    }

    synchronized void resume() {
      reading.set(true);
      session.acknowledge(unacknowledged);
      unacknowledged = 0;
    }

    void await(String marker) throws InterruptedException {
      long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!text().contains(marker)) {
        assertThat(System.nanoTime()).as("waiting for %s in %s", marker, text()).isLessThan(end);
        Thread.sleep(20);
      }
    }
  }

  private TerminalSession open(Screen screen, TerminalOptions options) {
    TerminalSession session = terminals.open(home, options, screen).await().atMost(Duration.ofSeconds(60));
    screen.session = session;
    return session;
  }

  private static byte[] keys(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aShellInTheHomeAnswersResizesAndExits() throws Exception {
    Screen screen = new Screen();
    TerminalSession session = open(screen, TerminalOptions.shell(100, 30));
    assertThat(session.pid()).isPositive();
    session.input(keys("echo id=$(id -u) in=$(pwd) term=$TERM size=$(stty size)\n")).await().atMost(Duration.ofSeconds(10));
    screen.await("id=1000 in=/home/user term=xterm-256color size=30 100");
    session.resize(120, 40).await().atMost(Duration.ofSeconds(10));
    session.input(keys("echo now=$(stty size)\n")).await().atMost(Duration.ofSeconds(10));
    screen.await("now=40 120");
    session.input(keys("sleep 100; echo sl$((0))ept\n")).await().atMost(Duration.ofSeconds(10));
    Thread.sleep(300);
    session.input(new byte[] {3}).await().atMost(Duration.ofSeconds(10));
    session.input(keys("exit 3\n")).await().atMost(Duration.ofSeconds(10));
    TerminalEnd end = session.ended().toCompletableFuture().get(20, TimeUnit.SECONDS);
    assertThat(end).isEqualTo(new TerminalEnd(3, false));
    assertThat(screen.text()).doesNotContain("sl0ept");
  }

  /** A reader that stops reading holds the terminal to celld's window; ^C still ends the flood. */
  @Test
  void aFloodIntoAStalledReaderStaysWithinTheWindowAndCtrlCEndsIt() throws Exception {
    Screen screen = new Screen();
    TerminalSession session = open(screen, TerminalOptions.shell(80, 24));
    screen.reading.set(false);
    session.input(keys("yes flood-line\n")).await().atMost(Duration.ofSeconds(10));
    Thread.sleep(2_000);
    int held = screen.size();
    Thread.sleep(1_000);
    assertThat(screen.size()).as("nothing past the window while the reader is stalled").isEqualTo(held)
        .isLessThanOrEqualTo(TerminalSession.WINDOW);
    session.input(new byte[] {3}).await().atMost(Duration.ofSeconds(10));
    session.input(keys("echo stopped-$((6*7))\n")).await().atMost(Duration.ofSeconds(10));
    screen.resume();
    screen.await("stopped-42");
    session.close().await().atMost(Duration.ofSeconds(10));
    assertThat(session.ended().toCompletableFuture().get(20, TimeUnit.SECONDS).closed()).isTrue();
  }
}
