package dev.workcell.sandbox.process.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.sandbox.KillProcess;
import dev.workcell.contracts.sandbox.ListProcesses;
import dev.workcell.contracts.sandbox.PollProcess;
import dev.workcell.contracts.sandbox.ProcessInput;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.ProcessView.OutputEntry;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Background processes in a home over NATS: polled by offset to completion, input, kill, list, waits. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BackgroundProcessesTest {

  @Inject
  SandboxClient sandboxes;

  SandboxRef home;

  @BeforeAll
  void home() {
    home = sandboxes.newHome("procs");
  }

  @AfterAll
  void stop() {
    sandboxes.call(SandboxSubjects.STOP, home);
  }

  private ProcessView start(String command, Long waitMs) {
    return sandboxes.call(SandboxSubjects.PROCESS_START, new StartProcess(home, command, null, null, waitMs, null));
  }

  private ProcessView poll(String id, long offset, Long waitMs) {
    return sandboxes.call(SandboxSubjects.PROCESS_STATUS, new PollProcess(home, id, offset, null, waitMs));
  }

  private static String text(ProcessView view, String type) {
    return view.output().stream().filter(e -> e.type().equals(type)).map(OutputEntry::data).collect(Collectors.joining());
  }

  @Test
  void outputPolledByOffsetArrivesCompleteAndInOrder() {
    ProcessView started = start("for i in $(seq 1 2000); do echo \"line $i\"; [ $((i % 400)) = 0 ] && sleep 0.1; done; exit 4", null);
    assertThat(started.status()).isEqualTo("running");
    assertThat(started.id()).matches("[0-9a-f]{12}");
    StringBuilder out = new StringBuilder();
    long offset = 0;
    ProcessView view;
    do {
      view = poll(started.id(), offset, 500L);
      assertThat(view.truncated()).isFalse();
      out.append(text(view, "stdout"));
      offset = view.nextOffset();
    } while (view.status().equals("running"));
    out.append(text(poll(started.id(), offset, null), "stdout"));
    String expected = IntStream.rangeClosed(1, 2000).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
    assertThat(out.toString()).isEqualTo(expected);
    assertThat(view.exitCode()).isEqualTo(4);
    assertThat(view.status()).isEqualTo("done");
    assertThat(view.endedAtMs()).isNotNull();
  }

  @Test
  void aStartWithWaitAnswersWhenTheProcessEnds() {
    long before = System.nanoTime();
    ProcessView done = start("echo quick", 60_000L);
    assertThat((System.nanoTime() - before) / 1_000_000).as("answered when it ended, not at the end of the wait").isLessThan(30_000);
    assertThat(done.status()).isEqualTo("done");
    assertThat(done.exitCode()).isZero();
    assertThat(text(done, "stdout")).isEqualTo("quick\n");
    ProcessView withEnv = sandboxes.call(SandboxSubjects.PROCESS_START,
        new StartProcess(home, "echo $GREETING; pwd", "", Map.of("GREETING", "hej"), 30_000L, null));
    assertThat(text(withEnv, "stdout")).isEqualTo("hej\n/home/user\n");
    ProcessView tail = sandboxes.call(SandboxSubjects.PROCESS_STATUS, new PollProcess(home, withEnv.id(), 0, 0, null));
    assertThat(tail.output()).isEmpty();
    assertThat(tail.truncated()).isTrue();
    assertThat(tail.nextOffset()).isEqualTo(withEnv.nextOffset());
  }

  @Test
  void inputReachesCatAndKillEndsIt() {
    ProcessView cat = start("cat", null);
    sandboxes.call(SandboxSubjects.PROCESS_INPUT, new ProcessInput(home, cat.id(), "hello\n"));
    String echoed = "";
    for (int i = 0; i < 50 && !echoed.contains("hello"); i++) {
      echoed = text(poll(cat.id(), 0, 200L), "stdout");
    }
    assertThat(echoed).isEqualTo("hello\n");
    assertThat(sandboxes.call(SandboxSubjects.PROCESS_LIST, new ListProcesses(home)).processes())
        .anySatisfy(p -> {
          assertThat(p.id()).isEqualTo(cat.id());
          assertThat(p.status()).isEqualTo("running");
          assertThat(p.output()).isEmpty();
        });
    ProcessView killed = sandboxes.call(SandboxSubjects.PROCESS_KILL, new KillProcess(home, cat.id(), false));
    assertThat(killed.status()).isEqualTo("killed");
    assertThat(killed.exitCode()).isEqualTo(128 + 15);
    assertThat(sandboxes.failure(SandboxSubjects.PROCESS_INPUT, new ProcessInput(home, cat.id(), "late\n")).code())
        .isEqualTo(ErrorCode.PROCESS_EXITED);
    assertThat(sandboxes.call(SandboxSubjects.PROCESS_LIST, new ListProcesses(home)).processes())
        .anySatisfy(p -> assertThat(p.status()).isEqualTo("killed"));
  }

  /** As upstream Open Terminal: python3 on a terminal prompts, and a line of input is answered. */
  @Test
  void anInteractivePythonOnATerminalAnswersItsInput() {
    ProcessView python = sandboxes.call(SandboxSubjects.PROCESS_START, new StartProcess(home, "python3", null, null, null, null, true));
    sandboxes.call(SandboxSubjects.PROCESS_INPUT, new ProcessInput(home, python.id(), "print(6*7)\n"));
    String shown = "";
    for (int i = 0; i < 50 && !shown.contains("42\r\n"); i++) {
      ProcessView view = poll(python.id(), 0, 200L);
      assertThat(view.output()).allSatisfy(e -> assertThat(e.type()).isEqualTo("output"));
      shown = text(view, "output");
    }
    assertThat(shown).contains("print(6*7)\r\n42\r\n");
    sandboxes.call(SandboxSubjects.PROCESS_INPUT, new ProcessInput(home, python.id(), "\u0004"));
    ProcessView ended = poll(python.id(), 0, 10_000L);
    assertThat(ended.status()).isEqualTo("done");
    assertThat(ended.exitCode()).isZero();
  }

  @Test
  void badRequestsAreRefused() {
    assertThat(sandboxes.failure(SandboxSubjects.PROCESS_STATUS, new PollProcess(home, "../../etc", 0, null, null)).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(sandboxes.failure(SandboxSubjects.PROCESS_START, new StartProcess(home, "true", null, null, 300_001L, null)).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(sandboxes.failure(SandboxSubjects.PROCESS_START, new StartProcess(home, "true", "../x", null, null, null)).code())
        .isEqualTo(ErrorCode.INVALID_PATH);
    assertThat(sandboxes.failure(SandboxSubjects.PROCESS_START, new StartProcess(home, "true", null, Map.of("A=B", "x"), null, null)).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }
}
