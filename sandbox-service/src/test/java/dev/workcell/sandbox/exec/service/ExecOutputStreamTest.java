package dev.workcell.sandbox.exec.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.ExecOutput;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.sandbox.testing.SandboxClient;
import io.nats.client.Dispatcher;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A command with an execId publishes its output live, in order, before its result. */
@QuarkusTest
class ExecOutputStreamTest {

  @Inject
  SandboxClient sandboxes;

  @Inject
  NatsConnection nats;

  @Inject
  MessageCodec codec;

  @Test
  void outputArrivesLiveAndInOrderOnTheExecSubject() throws Exception {
    SandboxRef ref = sandboxes.shared();
    String execId = "stream-" + System.nanoTime();
    List<ExecOutput> chunks = new CopyOnWriteArrayList<>();
    AtomicLong firstArrival = new AtomicLong();
    Dispatcher dispatcher = nats.connection().createDispatcher(message -> {
      firstArrival.compareAndSet(0, System.nanoTime());
      chunks.add(codec.decode(message.getData(), ExecOutput.class));
    });
    dispatcher.subscribe(SandboxSubjects.EXEC_OUTPUT.subject(execId));
    nats.connection().flush(Duration.ofSeconds(5));
    CommandResult result = sandboxes.call(SandboxSubjects.EXEC, new RunCommand(ref,
        "for i in 1 2 3; do echo out $i; echo err $i >&2; sleep 0.3; done", 30, null, null, execId));
    long replied = System.nanoTime();
    assertThat(result.exitCode()).isZero();
    nats.connection().flush(Duration.ofSeconds(5));
    nats.connection().closeDispatcher(dispatcher);
    assertThat(chunks).isNotEmpty();
    assertThat(replied - firstArrival.get()).as("the first chunk came while the command ran").isPositive();
    assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.execId()).isEqualTo(execId));
    assertThat(text(chunks, "stdout")).isEqualTo(result.stdout()).isEqualTo("out 1\nout 2\nout 3\n");
    assertThat(text(chunks, "stderr")).isEqualTo("err 1\nerr 2\nerr 3\n");
  }

  private static String text(List<ExecOutput> chunks, String stream) {
    return chunks.stream().filter(c -> c.stream().equals(stream)).map(ExecOutput::data).collect(Collectors.joining());
  }
}
