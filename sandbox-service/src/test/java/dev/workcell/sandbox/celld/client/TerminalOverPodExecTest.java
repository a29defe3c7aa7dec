package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.kubernetes.client.KubernetesSandboxDriver;
import dev.workcell.sandbox.kubernetes.client.KubernetesTestDrivers;
import dev.workcell.sandbox.runtime.SandboxHardening;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.OutputStreamMessage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A terminal on the Kubernetes backend (decision 0016): the PTY is celld's (pty_open and the other
 * pty ops), and its frames ride the same pods/exec channel, without a TTY on the exec. The mock API
 * server plays celld: it expects the exact request frames on the exec's stdin and answers with
 * celld's event and reply frames on stdout.
 */
@EnableKubernetesMockClient(crud = true, https = false)
class TerminalOverPodExecTest {

  private static final String NAMESPACE = "sandboxes-pty";

  static KubernetesClient client;
  static KubernetesMockServer server;

  @Test
  void ptyOpenInputAndCloseTravelAsCelldFramesOverTheExec() throws Exception {
    KubernetesSandboxDriver driver = KubernetesTestDrivers.driver(client, NAMESPACE, Map.of());
    SandboxInstance pod = driver.create(SandboxKey.task("pty1", "alice"), KubernetesTestDrivers.spec(), null);
    KubernetesTestDrivers.markReady(client, NAMESPACE, pod.name(), "10.0.2.1");
    server.expect().get().withPath(KubernetesTestDrivers.execPath(NAMESPACE, pod.name(), "celld", "serve")).andUpgradeToWebSocket().open()
        .expect(stdin("{\"cols\":100,\"rows\":30,\"id\":1,\"op\":\"pty_open\"}"))
        .andEmit(stdout("{\"id\":1,\"event\":\"pty_started\",\"pid\":42}")).once()
        // "ls\r" typed (bHMN); the terminal echoes "ls\r\n" (bHMNCg==)
        .expect(stdin("{\"session\":1,\"data\":\"bHMN\",\"id\":2,\"op\":\"pty_input\"}"))
        .andEmit(stdout("{\"id\":1,\"event\":\"pty_output\",\"data\":\"bHMNCg==\"}")).once()
        .expect(stdin("{\"session\":1,\"id\":3,\"op\":\"pty_close\"}"))
        .andEmit(stdout("{\"id\":1,\"ok\":true,\"result\":{\"exitCode\":0}}")).once()
        .done().always();

    CelldConnection celld = new CelldConnection("task pty1", pod.containerId());
    celld.attach(driver.exec(pod, SandboxHardening.WORKSPACE, List.of("celld", "serve"), celld));
    Screen screen = new Screen();
    CelldConnection.Sent session = celld.open(new CelldRequest.PtyOpen(100, 30, null, null, null, null), screen);
    assertThat(screen.pid).succeedsWithin(10, TimeUnit.SECONDS).isEqualTo(42L);

    celld.send(new CelldRequest.PtyInput(session.id(), "ls\r".getBytes(StandardCharsets.UTF_8)));
    screen.await("ls\r\n");
    celld.send(new CelldRequest.PtyClose(session.id()));
    assertThat(session.reply()).succeedsWithin(Duration.ofSeconds(10))
        .satisfies(result -> assertThat(result.path("exitCode").asInt(-1)).isZero());
    celld.close(new WorkcellException(ErrorCode.CANCELLED, "the test is over"));
  }

  /** One request frame as it arrives on the exec's stdin channel (0): length prefix, then the JSON. */
  private static String stdin(String json) {
    return "\u0000" + frame(json);
  }

  private static OutputStreamMessage stdout(String json) {
    return new OutputStreamMessage(frame(json));
  }

  /** The frames here are shorter than 128 bytes, so each prefix byte is one UTF-8 character. */
  private static String frame(String json) {
    int length = json.getBytes(StandardCharsets.UTF_8).length;
    assertThat(length).isLessThan(128);
    return "\u0000\u0000\u0000" + (char) length + json;
  }

  private static final class Screen implements CelldConnection.TerminalSink {
    final CompletableFuture<Long> pid = new CompletableFuture<>();
    private final ByteArrayOutputStream shown = new ByteArrayOutputStream();

    @Override
    public void started(long processId) {
      pid.complete(processId);
    }

    @Override
    public synchronized void output(byte[] data) {
      shown.writeBytes(data);
      notifyAll();
    }

    synchronized void await(String text) throws InterruptedException {
      long deadline = System.currentTimeMillis() + 10_000;
      while (!shown.toString(StandardCharsets.UTF_8).contains(text)) {
        long left = deadline - System.currentTimeMillis();
        assertThat(left).as("terminal output %s", shown.toString(StandardCharsets.UTF_8)).isPositive();
        wait(left);
      }
    }
  }
}
