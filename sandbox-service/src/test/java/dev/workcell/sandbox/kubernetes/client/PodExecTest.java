package dev.workcell.sandbox.kubernetes.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.sandbox.runtime.ExecStream;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.OutputStreamMessage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * celld's channel on Kubernetes, pods/exec, against the mock API server: it scripts the exec's
 * WebSocket (what arrives on stdin, what it answers on stdout) where a kubelet would run the process.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class PodExecTest {

  private static final String NAMESPACE = "sandboxes-exec";
  private static final int SANDBOXES = 12;

  static KubernetesClient client;
  static KubernetesMockServer server;

  @Test
  void runningSandboxesHoldNoThreadOfTheirOwnAndStdinReachesTheProcess() throws Exception {
    KubernetesSandboxDriver driver = KubernetesTestDrivers.driver(client, NAMESPACE, Map.of());
    List<SandboxInstance> pods = new ArrayList<>();
    for (int i = 0; i < SANDBOXES; i++) {
      SandboxInstance pod = driver.create(SandboxKey.task("x" + i, "alice"), KubernetesTestDrivers.spec(), null);
      KubernetesTestDrivers.markReady(client, NAMESPACE, pod.name(), "10.0.1." + (i + 1));
      // The process behind the exec: answers each line it reads on stdin, on stdout.
      server.expect().get().withPath(KubernetesTestDrivers.execPath(NAMESPACE, pod.name(), "cat")).andUpgradeToWebSocket().open()
          .expect("\u0000ping " + i + " 0\n").andEmit(new OutputStreamMessage("pong " + i + " 0\n")).once()
          .expect("\u0000ping " + i + " 1\n").andEmit(new OutputStreamMessage("pong " + i + " 1\n")).once()
          .done().always();
      pods.add(pod);
    }
    int threadsBefore = threadsInTheClientOrDriver();

    List<Collected> outputs = new ArrayList<>();
    List<ExecStream> streams = new ArrayList<>();
    for (SandboxInstance pod : pods) {
      Collected output = new Collected();
      streams.add(driver.exec(pod, SandboxHardening.WORKSPACE, List.of("cat"), output));
      outputs.add(output);
    }
    // Open and idle: fabric8's input pumper would hold one platform thread per exec (SANDBOXES of
    // them, each polling its pipe every 50 ms); the drains here are virtual and end with their queue.
    int idle = threadsInTheClientOrDriver() - threadsBefore;
    System.out.printf("PodExecTest: %d execs open and idle, %d more platform threads in the client or the driver%n", SANDBOXES, idle);
    assertThat(idle).as("platform threads in the client or the driver, %d execs open", SANDBOXES).isLessThan(SANDBOXES / 2);
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < SANDBOXES; i++) {
        streams.get(i).write(("ping " + i + " " + round + "\n").getBytes(StandardCharsets.UTF_8));
      }
      for (int i = 0; i < SANDBOXES; i++) {
        outputs.get(i).await("pong " + i + " " + round + "\n");
      }
    }
    assertThat(threadsInTheClientOrDriver() - threadsBefore).as("after the traffic").isLessThan(SANDBOXES / 2);
    assertThat(streams).allMatch(ExecStream::open);

    streams.forEach(ExecStream::close);
    assertThat(streams).noneMatch(ExecStream::open);
    for (Collected output : outputs) {
      assertThat(output.closed).succeedsWithin(10, TimeUnit.SECONDS);
    }
  }

  /** Platform threads now inside fabric8's client or Workcell's code (a pumper blocked on a pipe is one). */
  private static int threadsInTheClientOrDriver() {
    return (int) Thread.getAllStackTraces().values().stream().filter(stack -> Arrays.stream(stack).anyMatch(frame ->
        frame.getClassName().startsWith("io.fabric8.kubernetes.client.") && !frame.getClassName().contains(".server.mock.")
            || frame.getClassName().startsWith("dev.workcell."))).count();
  }

  /** stdout as one string; the exec's end. */
  static final class Collected implements ExecStream.Listener {
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    final CompletableFuture<Throwable> closed = new CompletableFuture<>();

    @Override
    public synchronized void stdout(byte[] data) {
      stdout.writeBytes(data);
      notifyAll();
    }

    @Override
    public void stderr(byte[] data) {}

    @Override
    public void closed(Throwable cause) {
      closed.complete(cause);
    }

    synchronized void await(String line) throws InterruptedException {
      long deadline = System.currentTimeMillis() + 10_000;
      while (!stdout.toString(StandardCharsets.UTF_8).contains(line)) {
        long left = deadline - System.currentTimeMillis();
        assertThat(left).as("waiting for %s, got %s", line.strip(), stdout.toString(StandardCharsets.UTF_8)).isPositive();
        wait(left);
      }
    }
  }
}
