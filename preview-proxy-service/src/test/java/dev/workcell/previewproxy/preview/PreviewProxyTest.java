package dev.workcell.previewproxy.preview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.preview.PreviewSubjects;
import dev.workcell.contracts.preview.PreviewSubjects.IssueLink;
import dev.workcell.contracts.preview.PreviewSubjects.PreviewLink;
import dev.workcell.contracts.preview.PreviewToken;
import dev.workcell.contracts.sandbox.PreviewState;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.task.PreviewView;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.testing.PrivateNatsServer;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * preview-proxy against a real upstream HTTP/WebSocket server standing in for a sandbox's preview,
 * with task-service and sandbox-service played on the contract subjects.
 */
@QuarkusTest
@QuarkusTestResource(PrivateNatsServer.class)
class PreviewProxyTest {

  private static final byte[] KEY = "test-preview-key".getBytes(StandardCharsets.UTF_8);
  private static final String OWNER = "alice";
  private static final Vertx VERTX = Vertx.vertx();
  private static final Map<String, Upstream> UPSTREAMS = new ConcurrentHashMap<>();

  /** One task's preview: its generation, whether it runs, and the server playing it. */
  static final class Upstream {
    final String name;
    final HttpServer server;
    final CopyOnWriteArrayList<Map<String, String>> seen = new CopyOnWriteArrayList<>();
    volatile long generation = 1;
    volatile boolean running = true;

    Upstream(String name) throws Exception {
      this.name = name;
      this.server = VERTX.createHttpServer()
          .requestHandler(req -> {
            Map<String, String> headers = new ConcurrentHashMap<>();
            req.headers().forEach(h -> headers.put(h.getKey().toLowerCase(), h.getValue()));
            headers.put(":uri", req.uri());
            seen.add(headers);
            switch (req.path()) {
              case "/ws" -> req.toWebSocket().onSuccess(ws -> ws.textMessageHandler(t -> ws.writeTextMessage(name + ":" + t)));
              case "/echo" -> { // streams the body back as it comes
                req.response().setChunked(true);
                req.pipeTo(req.response());
              }
              case "/big" -> {
                byte[] chunk = new byte[64 * 1024];
                req.response().setChunked(true).putHeader("Content-Type", "application/octet-stream");
                for (int i = 0; i < 16; i++) {
                  req.response().write(Buffer.buffer(chunk));
                }
                req.response().end();
              }
              case "/range" -> {
                String range = req.getHeader("Range");
                if ("bytes=2-4".equals(range)) {
                  req.response().setStatusCode(206).putHeader("Content-Range", "bytes 2-4/10").end("23" + "4");
                } else {
                  req.response().end("0123456789");
                }
              }
              case "/events" -> {
                req.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
                req.response().write("data: one\n\n");
                VERTX.setTimer(300, t -> req.response().end("data: two\n\n"));
              }
              default -> req.response().putHeader("Content-Type", "text/html; charset=utf-8")
                  .putHeader("Set-Cookie", "session=leak").end("<h1>" + name + "</h1>");
            }
          })
          .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  /** Plays task-service's preview state and sandbox-service's preview status. */
  @ApplicationScoped
  static class Services {
    void register(@Observes StartupEvent event, NatsResponder responder) {
      responder.serve(TaskSubjects.PREVIEW_GET, r -> Uni.createFrom().item(() -> {
        Upstream up = UPSTREAMS.get(r.body().taskId());
        return new PreviewView(r.body().taskId(), up.running ? "ready" : "stopped", up.generation, up.server.actualPort(), null, null);
      }));
      responder.serve(SandboxSubjects.PREVIEW_STATUS, r -> Uni.createFrom().item(() -> {
        if (!OWNER.equals(r.body().ownerId())) { // sandbox-service matches the owner label
          throw new WorkcellException(ErrorCode.NOT_FOUND, "no such sandbox");
        }
        Upstream up = UPSTREAMS.get(r.body().taskId());
        return new PreviewState(r.body().taskId(), up.running, "serve", 4173, up.running ? "127.0.0.1" : null,
            up.running ? up.server.actualPort() : null);
      }));
    }
  }

  @TestHTTPResource("/")
  URL base;

  @Inject
  NatsRequester requester;

  private static String taskA;
  private static String taskB;

  @BeforeAll
  static void upstreams() throws Exception {
    taskA = UUID.randomUUID().toString();
    taskB = UUID.randomUUID().toString();
    UPSTREAMS.put(taskA, new Upstream("task-a"));
    UPSTREAMS.put(taskB, new Upstream("task-b"));
  }

  @AfterAll
  static void close() {
    VERTX.close();
  }

  private static String link(String taskId, long generation, Instant expires) {
    return PreviewToken.PATH_PREFIX + new PreviewToken(taskId, OWNER, generation, expires.getEpochSecond()).sign(KEY) + "/";
  }

  private static String link(String taskId) {
    return link(taskId, UPSTREAMS.get(taskId).generation, Instant.now().plusSeconds(600));
  }

  private HttpResponse<String> get(String path, Map<String, String> headers) throws Exception {
    var request = HttpRequest.newBuilder(URI.create(base.toString()).resolve(path));
    headers.forEach(request::header);
    return java.net.http.HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertProblem(HttpResponse<String> response, String code) {
    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    assertThat(response.body()).contains("\"code\":\"" + code + "\"");
  }

  @Test
  void aSignedLinkServesThePageHardenedWithoutCredentialsOrCookies() throws Exception {
    Upstream up = UPSTREAMS.get(taskA);
    up.seen.clear();
    var response = get(link(taskA) + "index.html?x=1", Map.of("Authorization", "Bearer workcell-token", "Cookie", "wc=secret"));
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("<h1>task-a</h1>");
    assertThat(response.headers().firstValue("Content-Security-Policy"))
        .hasValue("sandbox allow-scripts allow-forms allow-modals allow-downloads allow-popups");
    assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(response.headers().firstValue("Set-Cookie")).isEmpty();
    Map<String, String> seen = up.seen.getLast();
    assertThat(seen.get(":uri")).isEqualTo("/index.html?x=1");
    assertThat(seen).doesNotContainKeys("authorization", "cookie");
  }

  @Test
  void theLinkWithoutItsTrailingSlashRedirectsSoRelativeUrlsResolveUnderIt() throws Exception {
    String link = link(taskA);
    var response = get(link.substring(0, link.length() - 1), Map.of());
    assertThat(response.statusCode()).isEqualTo(308);
    assertThat(response.headers().firstValue("Location")).hasValue(link);
  }

  @Test
  void aTamperedOrExpiredLinkIsRefusedBeforeThePreviewSeesAnything() throws Exception {
    Upstream up = UPSTREAMS.get(taskA);
    up.seen.clear();
    String good = link(taskA);
    String token = good.substring(PreviewToken.PATH_PREFIX.length(), good.length() - 1);
    // Another task's id under the same signature.
    String payload = new String(java.util.Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))), StandardCharsets.UTF_8);
    String forged = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
        payload.replace(taskA, taskB).getBytes(StandardCharsets.UTF_8)) + token.substring(token.indexOf('.'));
    assertProblem(get(PreviewToken.PATH_PREFIX + forged + "/", Map.of()), "preview_link_invalid");
    char last = token.charAt(token.length() - 1);
    String flipped = token.substring(0, token.length() - 1) + (last == 'A' ? 'B' : 'A');
    assertProblem(get(PreviewToken.PATH_PREFIX + flipped + "/", Map.of()), "preview_link_invalid");
    assertProblem(get(PreviewToken.PATH_PREFIX + "garbage/", Map.of()), "preview_link_invalid");
    String otherKey = PreviewToken.PATH_PREFIX + new PreviewToken(taskA, OWNER, up.generation, Instant.now().plusSeconds(60).getEpochSecond())
        .sign("another-key".getBytes(StandardCharsets.UTF_8)) + "/";
    assertProblem(get(otherKey, Map.of()), "preview_link_invalid");
    assertProblem(get(link(taskA, up.generation, Instant.now().minusSeconds(1)), Map.of()), "preview_link_expired");
    assertThat(up.seen).isEmpty();
  }

  @Test
  void aRestartOrStopRevokesTheOldLinkAndTheNewOneWorks() throws Exception {
    String taskId = UUID.randomUUID().toString();
    Upstream up = new Upstream("restarted");
    UPSTREAMS.put(taskId, up);
    String first = link(taskId);
    assertThat(get(first, Map.of()).statusCode()).isEqualTo(200);
    up.generation++; // restarted
    Thread.sleep(1_100); // the check is reused for at most 1 s
    assertProblem(get(first, Map.of()), "preview_revoked");
    String second = link(taskId);
    assertThat(get(second, Map.of()).body()).isEqualTo("<h1>restarted</h1>");
    up.running = false; // stopped
    Thread.sleep(1_100);
    assertProblem(get(second, Map.of()), "preview_revoked");
  }

  @Test
  void eachTasksLinkReachesOnlyItsOwnPreview() throws Exception {
    assertThat(get(link(taskA), Map.of()).body()).isEqualTo("<h1>task-a</h1>");
    assertThat(get(link(taskB), Map.of()).body()).isEqualTo("<h1>task-b</h1>");
  }

  @Test
  void bodiesStreamBothWaysAndRangesAndEventsPassThrough() throws Exception {
    HttpClient client = VERTX.createHttpClient(new HttpClientOptions().setDefaultHost(base.getHost()).setDefaultPort(base.getPort()));
    byte[] body = new byte[3 * 1024 * 1024];
    new java.util.Random(7).nextBytes(body);
    Buffer echoed = client.request(new RequestOptions().setMethod(HttpMethod.POST).setURI(link(taskA) + "echo"))
        .compose(req -> req.putHeader("Content-Length", String.valueOf(body.length)).send(Buffer.buffer(body)))
        .compose(resp -> resp.body()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertThat(echoed.getBytes()).isEqualTo(body);

    Buffer big = client.request(HttpMethod.GET, link(taskA) + "big").compose(req -> req.send()).compose(resp -> resp.body())
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertThat(big.length()).isEqualTo(16 * 64 * 1024);

    var range = get(link(taskA) + "range", Map.of("Range", "bytes=2-4"));
    assertThat(range.statusCode()).isEqualTo(206);
    assertThat(range.headers().firstValue("Content-Range")).hasValue("bytes 2-4/10");
    assertThat(range.body()).isEqualTo("234");

    // The first event arrives before the upstream has finished the response.
    var firstEvent = new java.util.concurrent.CompletableFuture<String>();
    var ended = new java.util.concurrent.CompletableFuture<Void>();
    client.request(HttpMethod.GET, link(taskA) + "events").compose(req -> req.send()).onSuccess(resp -> {
      resp.handler(chunk -> firstEvent.complete(chunk.toString()));
      resp.endHandler(v -> ended.complete(null));
    });
    assertThat(firstEvent.get(10, TimeUnit.SECONDS)).startsWith("data: one");
    assertThat(ended).isNotDone();
    ended.get(10, TimeUnit.SECONDS);
    client.close();
  }

  @Test
  void aWebSocketEchoesThroughTheProxyAndOnlyToItsOwnTask() throws Exception {
    HttpClient client = VERTX.createHttpClient();
    for (String taskId : new String[] {taskA, taskB}) {
      var reply = new java.util.concurrent.CompletableFuture<String>();
      client.webSocket(new WebSocketConnectOptions().setHost(base.getHost()).setPort(base.getPort()).setURI(link(taskId) + "ws"))
          .onFailure(reply::completeExceptionally)
          .onSuccess(ws -> {
            ws.textMessageHandler(reply::complete);
            ws.writeTextMessage("hello");
          });
      assertThat(reply.get(10, TimeUnit.SECONDS)).isEqualTo(UPSTREAMS.get(taskId).name + ":hello");
    }
    client.close();
  }

  private PreviewLink issue(Actor actor, IssueLink request) {
    return requester.request(PreviewSubjects.LINK_ISSUE, request, actor, Duration.ofSeconds(10)).await().atMost(Duration.ofSeconds(15));
  }

  private void assertIssueRefused(Actor actor, IssueLink request, ErrorCode code) {
    assertThatThrownBy(() -> issue(actor, request)).isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  @Test
  void theIssuerSignsTheRunningGenerationOnTheCallersOriginAndTheLinkWorks() throws Exception {
    String taskId = UUID.randomUUID().toString();
    Upstream up = new Upstream("issued");
    up.generation = 4;
    UPSTREAMS.put(taskId, up);
    Actor runner = Actor.service(ServiceName.AGENT_RUNNER);

    PreviewLink link = issue(runner, new IssueLink(taskId, OWNER, "https://work.example/api/work/tasks/x"));
    assertThat(link.generation()).isEqualTo(4);
    assertThat(link.path()).startsWith(PreviewToken.PATH_PREFIX).endsWith("/");
    assertThat(link.url()).isEqualTo("https://work.example" + link.path());
    assertThat(link.expiresAt()).isAfter(Instant.now().plus(Duration.ofHours(7)));
    assertThat(get(link.path(), Map.of()).body()).isEqualTo("<h1>issued</h1>");
    // agent-runner names no origin: the path is the link.
    assertThat(issue(runner, new IssueLink(taskId, OWNER, null)).url()).isNull();
    // The owner may ask too; so may an admin.
    assertThat(issue(new Actor(OWNER, Actor.Role.USER), new IssueLink(taskId, OWNER, null)).generation()).isEqualTo(4);

    up.generation = 5; // restarted: a new link names the new generation, the old one is refused
    PreviewLink renewed = issue(runner, new IssueLink(taskId, OWNER, null));
    assertThat(renewed.generation()).isEqualTo(5);
    Thread.sleep(1_100); // the proxy reuses a check for at most 1 s
    assertProblem(get(link.path(), Map.of()), "preview_revoked");
    assertThat(get(renewed.path(), Map.of()).body()).isEqualTo("<h1>issued</h1>");
  }

  @Test
  void noLinkIsIssuedForAStoppedPreviewOrAnotherOwnersTask() throws Exception {
    String taskId = UUID.randomUUID().toString();
    Upstream up = new Upstream("guarded");
    UPSTREAMS.put(taskId, up);
    Actor gateway = Actor.service(ServiceName.GATEWAY);
    // A user asking for another owner's task learns nothing; a service naming the wrong owner is refused by sandbox-service.
    assertIssueRefused(new Actor("mallory", Actor.Role.USER), new IssueLink(taskId, OWNER, null), ErrorCode.NOT_FOUND);
    assertIssueRefused(gateway, new IssueLink(taskId, "mallory", null), ErrorCode.PREVIEW_REVOKED);
    assertIssueRefused(gateway, new IssueLink(taskId, null, null), ErrorCode.INVALID_REQUEST);
    assertIssueRefused(gateway, new IssueLink(taskId, OWNER, "javascript:alert(1)"), ErrorCode.INVALID_REQUEST);
    up.running = false;
    assertIssueRefused(gateway, new IssueLink(taskId, OWNER, null), ErrorCode.PREVIEW_REVOKED);
  }
}
