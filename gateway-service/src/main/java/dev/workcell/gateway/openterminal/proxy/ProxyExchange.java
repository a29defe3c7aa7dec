package dev.workcell.gateway.openterminal.proxy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.PortStreamApi.PortStreamChunk;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.messaging.relay.RelayProblem;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.quarkus.logging.Log;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * One request relayed to a port inside the caller's home (decision 0020): HTTP/1.1 is spoken over
 * the port stream with Netty's client codec on an {@link EmbeddedChannel}, so framing (length,
 * chunked, read-until-close, HEAD) is Netty's, not ours. Both bodies stream with bounded memory: the
 * request body is sent one write at a time (at most {@link #HIGH_WATER} waiting, the client paused
 * beyond it), and a chunk of the answer is acknowledged only once the client's connection took it,
 * so a slow client holds the server at one window. Everything runs on the request's context.
 */
final class ProxyExchange {

  /** Request-body bytes waiting to be written before the client is paused. */
  static final int HIGH_WATER = 64 << 10;
  private static final int MAX_WRITE = 256 << 10;
  /** As upstream: the request minus these (and minus every hop-by-hop header, which HTTP/1.1 requires). */
  private static final Set<String> REQUEST_DROPPED = Set.of("host", "transfer-encoding", "connection", "authorization",
      "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "proxy-authorization");
  /** As upstream minus content-length and content-encoding: the body passes as it came, so both still hold. */
  private static final Set<String> RESPONSE_DROPPED = Set.of("transfer-encoding", "connection", "keep-alive",
      "proxy-connection", "trailer", "upgrade");

  private final HttpServerRequest in;
  private final HttpServerResponse out;
  private final PortStreams streams;
  private final Context context;
  private final int port;
  private final EmbeddedChannel http = new EmbeddedChannel(new HttpClientCodec(8192, 65536, 65536));
  private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
  private String id;
  private long nextSeq;
  private boolean writing;
  private boolean paused;
  private boolean headSent;
  private boolean done;
  private int unacknowledged;

  ProxyExchange(HttpServerRequest in, PortStreams streams, Vertx vertx, int port) {
    this.in = in;
    this.out = in.response();
    this.streams = streams;
    this.context = vertx.getOrCreateContext();
    this.port = port;
  }

  /** The request is paused; it stays so until the stream is open. */
  void start(SandboxRef home, String target) {
    out.closeHandler(v -> finish());
    streams.open(home, port, chunk -> context.runOnContext(v -> chunk(chunk)), () -> context.runOnContext(v -> lost()))
        .subscribe().with(
            opened -> context.runOnContext(v -> opened(opened, target)),
            failure -> context.runOnContext(v -> refused(failure)));
  }

  private void opened(String stream, String target) {
    id = stream;
    if (done) { // the client left while the stream opened
      streams.close(id);
      return;
    }
    DefaultHttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(in.method().name()), target);
    in.headers().forEach(header -> {
      if (!REQUEST_DROPPED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
        request.headers().add(header.getKey(), header.getValue());
      }
    });
    request.headers().set("Host", "localhost:" + port);
    if (!in.headers().contains("Content-Length") && in.headers().contains("Transfer-Encoding")) {
      request.headers().set("Transfer-Encoding", "chunked"); // ours now: the codec frames the body anew
    }
    encode(request);
    in.handler(data -> {
      encode(new DefaultHttpContent(Unpooled.wrappedBuffer(data.getBytes())));
      if (pending.size() >= HIGH_WATER && !paused) {
        paused = true;
        in.pause();
      }
    });
    in.endHandler(v -> encode(LastHttpContent.EMPTY_LAST_CONTENT));
    in.exceptionHandler(e -> finish());
    in.resume();
  }

  private void encode(Object message) {
    if (done) { // the answer is complete or cut: the rest of the request body has nowhere to go
      io.netty.util.ReferenceCountUtil.release(message);
      return;
    }
    http.writeOutbound(message);
    for (ByteBuf bytes; (bytes = http.readOutbound()) != null; ) {
      byte[] encoded = new byte[bytes.readableBytes()];
      bytes.readBytes(encoded);
      bytes.release();
      pending.write(encoded, 0, encoded.length);
    }
    flush();
  }

  /** One write in flight at a time: what arrives meanwhile goes out together in the next. */
  private void flush() {
    if (writing || pending.size() == 0 || done) {
      return;
    }
    byte[] all = pending.toByteArray();
    int n = Math.min(all.length, MAX_WRITE);
    byte[] data = n == all.length ? all : Arrays.copyOf(all, n);
    pending.reset();
    pending.write(all, n, all.length - n);
    writing = true;
    streams.write(id, data).subscribe().with(
        ok -> context.runOnContext(v -> {
          writing = false;
          if (paused && pending.size() < HIGH_WATER) {
            paused = false;
            in.resume();
          }
          flush();
        }),
        failure -> context.runOnContext(v -> {
          writing = false;
          Log.debugf("proxy write to port %d failed: %s", port, failure.getMessage());
        }));
  }

  private void chunk(PortStreamChunk chunk) {
    if (done) {
      return;
    }
    if (chunk.seq() != nextSeq++) {
      Log.warnf("port stream %s: chunk %d arrived, %d expected; cutting the answer", id, chunk.seq(), nextSeq - 1);
      abort();
      return;
    }
    if (chunk.last()) {
      http.finish(); // read-until-close answers end here (the codec emits their last content)
      drain();
      if (!done) {
        if (headSent) {
          abort(); // the server closed mid-answer
        } else {
          RelayProblem.send(in, ErrorCode.CONNECTION_REFUSED, "The server on localhost:" + port + " closed the connection without an answer");
          finish();
        }
      }
      return;
    }
    byte[] data = chunk.data();
    http.writeInbound(Unpooled.wrappedBuffer(data));
    unacknowledged += data.length;
    drain();
    if (done) {
      return;
    }
    if (!out.writeQueueFull()) {
      acknowledge();
    } else {
      out.drainHandler(v -> acknowledge());
    }
  }

  /** The sandbox-service instance that held the stream is gone: the answer can never complete. */
  private void lost() {
    if (done) {
      return;
    }
    if (headSent) {
      abort();
    } else {
      RelayProblem.send(in, ErrorCode.SERVICE_UNAVAILABLE, "sandbox-service stopped while the server on localhost:" + port + " answered");
      finish();
    }
  }

  private void acknowledge() {
    if (unacknowledged > 0 && !done) {
      streams.acknowledge(id, unacknowledged);
      unacknowledged = 0;
    }
  }

  private void drain() {
    for (Object message; !done && (message = http.readInbound()) != null; ) {
      HttpObject object = (HttpObject) message;
      if (object.decoderResult().isFailure()) {
        Log.debugf("port %d answered what is not HTTP: %s", port, object.decoderResult().cause());
        if (headSent) {
          abort();
        } else {
          RelayProblem.send(in, ErrorCode.CONNECTION_REFUSED, "The server on localhost:" + port + " did not answer HTTP");
          finish();
        }
        release(object);
        return;
      }
      if (object instanceof HttpResponse response) {
        head(response);
      }
      if (object instanceof HttpContent content) {
        if (content.content().isReadable()) {
          out.write(Buffer.buffer(Unpooled.copiedBuffer(content.content())));
        }
        content.release();
        // After a 1xx interim head the codec ends that empty "answer" too: only the real one's end counts.
        if (content instanceof LastHttpContent && headSent) {
          out.end();
          finish();
        }
      }
    }
  }

  private void head(HttpResponse response) {
    int status = response.status().code();
    if (status >= 100 && status < 200) {
      return; // interim (100 Continue): the server answers again
    }
    headSent = true;
    out.setStatusCode(status);
    response.headers().forEach(header -> {
      if (!RESPONSE_DROPPED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
        out.headers().add(header.getKey(), header.getValue());
      }
    });
    boolean noBody = in.method() == io.vertx.core.http.HttpMethod.HEAD || status == 204 || status == 304;
    if (!out.headers().contains("Content-Length") && !noBody) {
      out.setChunked(true);
    }
  }

  private void refused(Throwable failure) {
    if (failure instanceof WorkcellException known) {
      RelayProblem.send(in, known.code(), known.getMessage());
    } else {
      RelayProblem.send(in, ErrorCode.SERVICE_UNAVAILABLE, "the sandbox service did not answer");
    }
    finish();
  }

  private void abort() {
    finish();
    in.connection().close();
  }

  private void finish() {
    if (done) {
      return;
    }
    done = true;
    if (id != null) {
      streams.close(id);
    }
    http.finishAndReleaseAll();
    pending.reset();
  }

  private static void release(HttpObject object) {
    if (object instanceof HttpContent content) {
      content.release();
    }
  }
}
