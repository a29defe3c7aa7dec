package dev.workcell.terminal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalChunk;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalOpened;
import dev.workcell.contracts.sandbox.TerminalApi.TerminalState;
import dev.workcell.contracts.RoleName;
import dev.workcell.contracts.task.TaskApi.TaskDetail;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskView;
import dev.workcell.contracts.task.TicketApi.TicketGrant;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.testing.PrivateNatsServer;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * terminal-service's WebSockets with a real client over real NATS; sandbox-service and task-service
 * are played on their contract subjects: the "shell" echoes what it is sent and reports resizes.
 */
@QuarkusTest
@QuarkusTestResource(PrivateNatsServer.class)
class TerminalRoutesTest {

  static final String KEY = "test-terminal-key";
  static final String BASE = "/api/open-terminal/api/terminals";
  static final Vertx VERTX = Vertx.vertx();
  static final Map<String, AtomicLong> SESSIONS = new ConcurrentHashMap<>();
  static final Set<String> REVOKED = ConcurrentHashMap.newKeySet();
  static final Set<String> RUNNING = ConcurrentHashMap.newKeySet();

  @TestHTTPResource("/")
  URL url;

  /** sandbox-service and task-service as terminal-service sees them. */
  @ApplicationScoped
  static class Fixture {
    void register(@Observes StartupEvent event, NatsResponder responder, NatsConnection nats, MessageCodec codec) {
      responder.serve(SandboxSubjects.TERMINAL_OPEN, r -> Uni.createFrom().item(() -> {
        SESSIONS.put(r.body().sessionId(), new AtomicLong());
        return new TerminalOpened(r.body().sessionId(), 42);
      }));
      responder.serve(SandboxSubjects.TERMINAL_INPUT, r -> Uni.createFrom().item(() -> {
        String id = r.body().sessionId();
        String typed = new String(r.body().data(), StandardCharsets.UTF_8);
        if (typed.equals("exit\r")) {
          push(nats, codec, id, null, 0);
        } else if (typed.equals("lose\r")) {
          push(nats, codec, id, null, -1); // as sandbox-service when celld's channel ended under the session
        } else {
          push(nats, codec, id, r.body().data(), null);
        }
        return new TerminalState(id, true);
      }));
      responder.serve(SandboxSubjects.TERMINAL_RESIZE, r -> Uni.createFrom().item(() -> {
        push(nats, codec, r.body().sessionId(), ("size=" + r.body().rows() + "x" + r.body().cols()).getBytes(), null);
        return new TerminalState(r.body().sessionId(), true);
      }));
      responder.serve(SandboxSubjects.TERMINAL_CLOSE, r -> Uni.createFrom().item(() -> {
        push(nats, codec, r.body().sessionId(), null, -1);
        return new TerminalState(r.body().sessionId(), false);
      }));
      responder.serve(TaskSubjects.TICKET_CONSUME, r -> Uni.createFrom().item(() -> {
        if (!r.body().ticket().startsWith("good-") || !r.body().ticket().endsWith(r.body().taskId())) {
          throw new WorkcellException(ErrorCode.UNAUTHENTICATED, "the ticket is unknown, used, expired or not for this task");
        }
        return new TicketGrant("alice", RoleName.USER, r.body().taskId(), "terminal");
      }));
      responder.serve(TaskSubjects.GET, r -> Uni.createFrom().item(() -> new TaskDetail(new TaskView(r.body().taskId(), "alice",
          "t", null, null, null, null, false, null, null, RUNNING.contains(r.body().taskId()) ? TaskState.RUNNING : TaskState.IDLE,
          false, false, null, false, null, null, null, null), null, null, 0)));
      responder.serve(TaskSubjects.SANDBOX, r -> Uni.createFrom().item(() -> {
        if (REVOKED.contains(r.body().taskId())) {
          throw new WorkcellException(ErrorCode.ACCOUNT_DISABLED, "disabled");
        }
        return new SandboxRef(r.body().taskId(), "alice");
      }));
    }

    // Numbered and published under one lock, as sandbox-service does on celld's single reader thread.
    private static synchronized void push(NatsConnection nats, MessageCodec codec, String id, byte[] data, Integer exit) {
      long seq = SESSIONS.computeIfAbsent(id, k -> new AtomicLong()).getAndIncrement();
      nats.connection().publish(SandboxSubjects.TERMINAL_OUTPUT.subject(id), codec.encode(new TerminalChunk(id, seq, data, exit)));
    }
  }

  /** A connected client: what it received, and how it was closed. */
  static final class Client {
    final WebSocket ws;
    final StringBuffer received = new StringBuffer();
    final CompletableFuture<Short> closed = new CompletableFuture<>();

    Client(WebSocket ws) {
      this.ws = ws;
      ws.binaryMessageHandler(b -> received.append(b.toString(StandardCharsets.UTF_8)));
      ws.closeHandler(v -> closed.complete(ws.closeStatusCode()));
    }

    void await(String text) throws InterruptedException {
      long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!received.toString().contains(text)) {
        assertThat(System.nanoTime()).as("waiting for %s in %s", text, received).isLessThan(end);
        Thread.sleep(10);
      }
    }

    short closeCode() throws Exception {
      return closed.get(10, TimeUnit.SECONDS);
    }
  }

  Client connect(String path, Map<String, String> headers) throws Exception {
    WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(url.getHost()).setPort(url.getPort()).setURI(path);
    headers.forEach(options::addHeader);
    // Handlers set on the event loop as the socket opens: a server that closes at once (4004) is still seen.
    return VERTX.createHttpClient().webSocket(options).map(Client::new).toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  Throwable refused(String path) throws Exception {
    WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(url.getHost()).setPort(url.getPort()).setURI(path);
    var attempt = VERTX.createHttpClient().webSocket(options).toCompletionStage().toCompletableFuture();
    try {
      attempt.get(10, TimeUnit.SECONDS).close();
      throw new AssertionError("the upgrade was accepted");
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    }
  }

  HttpResponse<String> http(String method, String path, String user, String key) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url.toString().replaceAll("/$", "") + path))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (user != null) {
      request.header("X-User-Id", user);
    }
    if (key != null) {
      request.header("Authorization", "Bearer " + key);
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  String create(String user) throws Exception {
    HttpResponse<String> created = http("POST", BASE, user, KEY);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    assertThat(created.body()).contains("\"pid\":42").contains("\"created_at\"");
    return new io.vertx.core.json.JsonObject(created.body()).getString("id");
  }

  @Test
  void openWebUisFlowKeysTypingResizeAndDelete() throws Exception {
    String id = create("ann");
    assertThat(http("GET", BASE, "ann", KEY).body()).contains(id);
    assertThat(http("GET", BASE, "ann", "wrong").statusCode()).isEqualTo(401);
    assertThat(http("GET", BASE, null, KEY).statusCode()).isEqualTo(400);

    Client bad = connect(BASE + "/" + id, Map.of());
    bad.ws.writeTextMessage("{\"type\":\"auth\",\"token\":\"wrong\"}");
    assertThat(bad.closeCode()).isEqualTo((short) 4001);

    Client client = connect(BASE + "/" + id, Map.of());
    client.ws.writeTextMessage("{\"type\":\"auth\",\"token\":\"" + KEY + "\"}");
    client.ws.writeBinaryMessage(Buffer.buffer("echo hi\r"));
    client.await("echo hi");
    client.ws.writeTextMessage("{\"type\":\"resize\",\"cols\":132,\"rows\":43}");
    client.await("size=43x132");

    Client second = connect(BASE + "/" + id, Map.of());
    second.ws.writeTextMessage("{\"type\":\"auth\",\"token\":\"" + KEY + "\"}");
    assertThat(second.closeCode()).as("one socket per session").isEqualTo((short) 4004);

    assertThat(http("DELETE", BASE + "/" + id, "ann", KEY).body()).isEqualTo("{\"status\":\"deleted\"}");
    assertThat(client.closeCode()).isEqualTo((short) 1000);
    assertThat(http("GET", BASE + "/" + id, "ann", KEY).statusCode()).isEqualTo(404);
    Client gone = connect(BASE + "/" + id, Map.of());
    assertThat(gone.closeCode()).isEqualTo((short) 4004);
  }

  @Test
  void anotherUsersSessionIsUnknownAndExitClosesTheSocket() throws Exception {
    String id = create("bob");
    assertThat(http("GET", BASE + "/" + id, "eve", KEY).statusCode()).isEqualTo(404);
    assertThat(http("DELETE", BASE + "/" + id, "eve", KEY).statusCode()).isEqualTo(404);
    assertThat(connect(BASE + "/" + id, Map.of("X-User-Id", "eve")).closeCode()).isEqualTo((short) 4004);
    Client client = connect(BASE + "/" + id, Map.of("X-User-Id", "bob"));
    client.ws.writeTextMessage("{\"type\":\"auth\",\"token\":\"" + KEY + "\"}");
    client.ws.writeBinaryMessage(Buffer.buffer("exit\r"));
    assertThat(client.closeCode()).isEqualTo((short) 1000);
    assertThat(http("GET", BASE + "/" + id, "bob", KEY).statusCode()).isEqualTo(404);
  }

  @Test
  void workTerminalTicketsCapsRunsAndRevocation() throws Exception {
    String task = "11111111-1111-1111-1111-111111111111";
    String path = "/ws/work-terminal?taskId=" + task + "&ticket=good-";
    assertThat(((UpgradeRejectedException) refused("/ws/work-terminal?taskId=" + task + "&ticket=bad")).getStatus()).isEqualTo(401);

    Client one = connect(path + task, Map.of());
    one.ws.writeBinaryMessage(Buffer.buffer("pwd\r"));
    one.await("pwd");
    Client two = connect(path + task, Map.of());
    assertThat(((UpgradeRejectedException) refused(path + task)).getStatus()).as("a third session").isEqualTo(429);
    two.ws.close();
    two.closed.get(10, TimeUnit.SECONDS);
    Thread.sleep(300);
    Client three = connect(path + task, Map.of());

    long started = System.nanoTime();
    REVOKED.add(task);
    assertThat(one.closeCode()).isEqualTo((short) 4003);
    assertThat(three.closeCode()).isEqualTo((short) 4003);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));

    String busy = "22222222-2222-2222-2222-222222222222";
    RUNNING.add(busy);
    assertThat(((UpgradeRejectedException) refused("/ws/work-terminal?taskId=" + busy + "&ticket=good-" + busy)).getStatus())
        .as("a model run owns the container").isEqualTo(409);
  }

  /**
   * A session lost under the shell (sandbox-service reports no exit code) closes its socket with 1011,
   * not as a normal end, and frees its place: the Open Terminal session is gone, the task's slot free.
   */
  @Test
  void aLostSessionClosesWith1011AndFreesItsPlace() throws Exception {
    String id = create("lou");
    Client open = connect(BASE + "/" + id, Map.of());
    open.ws.writeTextMessage("{\"type\":\"auth\",\"token\":\"" + KEY + "\"}");
    open.ws.writeBinaryMessage(Buffer.buffer("lose\r"));
    assertThat(open.closeCode()).isEqualTo((short) 1011);
    assertThat(open.ws.closeReason()).contains("terminal lost");
    assertThat(http("GET", BASE + "/" + id, "lou", KEY).statusCode()).isEqualTo(404);

    String task = "44444444-4444-4444-4444-444444444444";
    String path = "/ws/work-terminal?taskId=" + task + "&ticket=good-" + task;
    Client one = connect(path, Map.of());
    Client two = connect(path, Map.of());
    two.ws.writeBinaryMessage(Buffer.buffer("lose\r"));
    assertThat(two.closeCode()).isEqualTo((short) 1011);
    Thread.sleep(300);
    Client three = connect(path, Map.of()); // the lost session's slot is free again
    three.ws.writeBinaryMessage(Buffer.buffer("pwd\r"));
    three.await("pwd");
    one.ws.close();
    three.ws.close();
  }

  /** WORK_TERMINAL_IDLE_TIMEOUT_MS (3 s in tests): typing keeps a session open, silence closes it with 4000. */
  @Test
  void anIdleWorkTerminalIsClosed() throws Exception {
    String task = "33333333-3333-3333-3333-333333333333";
    Client client = connect("/ws/work-terminal?taskId=" + task + "&ticket=good-" + task, Map.of());
    for (int i = 0; i < 4; i++) {
      Thread.sleep(1_000);
      client.ws.writeBinaryMessage(Buffer.buffer("k"));
    }
    assertThat(client.closed).as("kept open by typing for 4 s").isNotDone();
    long started = System.nanoTime();
    assertThat(client.closeCode()).isEqualTo((short) 4000);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(5));
  }
}
