package dev.workcell.messaging.relay;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketBase;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.http.WebSocketFrame;
import java.util.List;
import org.jboss.logging.Logger;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Relays one HTTP request (or WebSocket) to a target the caller chose, streaming both ways: bodies
 * go through Vert.x pipes, which pause the reading side while the writing side's queue is full, so a
 * connection holds at most a socket buffer or two of data however large or slow the body (chunked
 * bodies, ranges and server-sent events pass as they come). WebSocket frames are relayed one by one,
 * text stays text, with the same pause/resume. Hop-by-hop headers never pass.
 *
 * <p>The caller pauses the request before any asynchronous check and hands it over here.
 */
public final class HttpRelay {

  private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
      "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host",
      "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-accept");

  /** Header edits for one relayed exchange; {@code response} also sees the response's status. */
  public interface Edits {
    void request(MultiMap headers);

    void response(int status, MultiMap headers);
  }

  /** Relays headers as they are (hop-by-hop ones aside). */
  public static final Edits AS_IS = new Edits() {
    @Override
    public void request(MultiMap headers) {}

    @Override
    public void response(int status, MultiMap headers) {}
  };

  /** What the relay answers itself when the target cannot be reached. */
  public interface Failure {
    void unreachable(HttpServerRequest request, Throwable cause);
  }

  private static final Logger LOG = Logger.getLogger(HttpRelay.class);
  private static final int RELAY_CHUNK = 64 * 1024;

  private final LoopClients clients;

  /** {@code maxConnectionsPerTarget}: kept-alive connections to one target per event loop ({@link LoopClients}). */
  public HttpRelay(Vertx vertx, int maxConnectionsPerTarget, int connectTimeoutMs) {
    this.clients = new LoopClients(vertx, new HttpClientOptions()
        .setMaxPoolSize(maxConnectionsPerTarget).setConnectTimeout(connectTimeoutMs)
        .setKeepAlive(true).setTryUseCompression(false).setDecompressionSupported(false)
        // A body passes in pieces as large as a socket read gives (not Netty's 8 KB): each piece is one
        // write and flush on the other side, so larger pieces mean fewer system calls per megabyte.
        .setMaxChunkSize(RELAY_CHUNK));
  }

  public void relay(HttpServerRequest in, String host, int port, String uri, Edits edits, Failure failure) {
    if (isWebSocket(in)) {
      relayWebSocket(in, host, port, uri, edits, failure);
      return;
    }
    RequestOptions options = new RequestOptions().setMethod(in.method()).setHost(host).setPort(port).setURI(uri);
    clients.current().request(options).onFailure(e -> failure.unreachable(in, e)).onSuccess(out -> {
      copy(in.headers(), out.headers());
      edits.request(out.headers());
      boolean hasBody = in.headers().contains(HttpHeaders.CONTENT_LENGTH) || in.headers().contains(HttpHeaders.TRANSFER_ENCODING);
      if (in.headers().contains(HttpHeaders.CONTENT_LENGTH)) {
        out.putHeader(HttpHeaders.CONTENT_LENGTH, in.getHeader(HttpHeaders.CONTENT_LENGTH));
      } else if (hasBody) {
        out.setChunked(true);
      }
      var sent = hasBody ? out.send(in) : out.send();
      if (!hasBody) {
        in.resume();
      }
      sent.onFailure(e -> failure.unreachable(in, e)).onSuccess(response -> answer(in, response, edits));
    });
  }

  private static void answer(HttpServerRequest in, HttpClientResponse response, Edits edits) {
    QuickAck.now(response.request().connection());
    HttpServerResponse out = in.response();
    if (out.headWritten() || out.closed()) {
      response.request().reset();
      return;
    }
    out.setStatusCode(response.statusCode()).setStatusMessage(response.statusMessage());
    copy(response.headers(), out.headers());
    edits.response(response.statusCode(), out.headers());
    String length = response.getHeader(HttpHeaders.CONTENT_LENGTH);
    boolean noBody = in.method() == HttpMethod.HEAD || response.statusCode() == 204 || response.statusCode() == 304;
    if (length != null) {
      out.putHeader(HttpHeaders.CONTENT_LENGTH, length);
    } else if (!noBody) {
      out.setChunked(true);
    }
    // The client going away stops the upstream exchange too.
    out.closeHandler(v -> response.request().reset());
    response.pipeTo(out).onFailure(e -> LOG.debugf("relayed response cut off: %s", e));
  }

  private void relayWebSocket(HttpServerRequest in, String host, int port, String uri, Edits edits, Failure failure) {
    WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(host).setPort(port).setURI(uri);
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    copy(in.headers(), headers);
    String protocols = headers.get("sec-websocket-protocol");
    headers.remove("sec-websocket-protocol");
    edits.request(headers);
    headers.forEach(options::addHeader);
    if (protocols != null) {
      options.setSubProtocols(List.of(protocols.split("\\s*,\\s*")));
    }
    clients.current().webSocket(options).onFailure(e -> refused(in, e, edits, failure)).onSuccess(upstream -> {
      // Held until the browser's side is upgraded: a target that speaks (or closes, 4004) at once would be lost.
      upstream.pause();
      in.toWebSocket().onFailure(e -> upstream.close()).onSuccess(downstream -> {
        forward(downstream, upstream);
        forward(upstream, downstream);
        upstream.resume();
      });
    });
    // Stays paused: a request read to its end can no longer be upgraded.
  }

  /** The target answered the upgrade with a plain response (a refusal: 401, 403, 429…): the client gets it as it is. */
  private static void refused(HttpServerRequest in, Throwable e, Edits edits, Failure failure) {
    if (!(e instanceof UpgradeRejectedException rejected)) {
      failure.unreachable(in, e);
      return;
    }
    HttpServerResponse out = in.response();
    out.setStatusCode(rejected.getStatus());
    if (rejected.getHeaders() != null) {
      copy(rejected.getHeaders(), out.headers());
    }
    edits.response(rejected.getStatus(), out.headers());
    Buffer body = rejected.getBody() == null ? Buffer.buffer() : rejected.getBody();
    out.putHeader(HttpHeaders.CONTENT_LENGTH, Integer.toString(body.length())).end(body);
  }

  // Data frames pass in order (fragments included); control frames are answered by each side.
  private static void forward(WebSocketBase from, WebSocketBase to) {
    from.frameHandler((WebSocketFrame frame) -> {
      if (frame.isText() || frame.isBinary() || frame.isContinuation()) {
        to.writeFrame(frame);
        if (to.writeQueueFull()) {
          from.pause();
          to.drainHandler(v -> from.resume());
        }
      }
    });
    from.closeHandler(v -> closeLike(from, to));
    from.exceptionHandler(e -> to.close());
    if (from.isClosed() || from.closeStatusCode() != null) {
      closeLike(from, to); // it closed before these handlers were set (a target that refuses at once: 4004)
    }
  }

  private static void closeLike(WebSocketBase from, WebSocketBase to) {
    if (!to.isClosed()) {
      Short status = from.closeStatusCode();
      if (status != null && status != 1005 && status != 1006 && status != 1015) {
        to.close(status, from.closeReason());
      } else {
        to.close();
      }
    }
  }

  private static boolean isWebSocket(HttpServerRequest in) {
    return in.method() == HttpMethod.GET && "websocket".equalsIgnoreCase(in.getHeader(HttpHeaders.UPGRADE));
  }

  private static void copy(MultiMap from, MultiMap to) {
    for (var entry : from) {
      if (!HOP_BY_HOP.contains(entry.getKey().toLowerCase(java.util.Locale.ROOT)) && !entry.getKey().equalsIgnoreCase("content-length")) {
        to.add(entry.getKey(), entry.getValue());
      }
    }
  }
}
