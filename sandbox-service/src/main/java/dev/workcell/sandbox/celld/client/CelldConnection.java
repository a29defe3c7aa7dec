package dev.workcell.sandbox.celld.client;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.ExecStream;
import dev.workcell.sandbox.runtime.RequestQueueFull;
import io.quarkus.logging.Log;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * One celld process in one sandbox, reached over an attached exec. Concurrent requests are
 * multiplexed by id. Everything celld sends is untrusted: frames are size-capped and strictly
 * parsed, and the first malformed frame closes the connection (the next request starts a new celld).
 */
public final class CelldConnection implements ExecStream.Listener {

  /** celld's own frame cap, in both directions. */
  public static final int MAX_FRAME = 8 << 20;
  /** First byte of a bulk frame's body; no JSON text starts with it. */
  private static final byte BULK_FRAME = 0;
  private static final int STDERR_TAIL_CHARS = 2_000;
  /** The most terminal output handed on as one chunk: terminal-service packs WebSocket frames of up to 64 KiB. */
  static final int OUTPUT_CHUNK = 32 << 10;
  static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(16).maxNumberLength(32).maxStringLength(MAX_FRAME).build())
      .build());
  private static final ObjectWriter REQUESTS = JSON.writerFor(Frame.class);
  private static final ObjectWriter BULK_HEADS = JSON.writerFor(BulkHead.class);
  /** Length prefix, the bulk byte and the JSON's length: what precedes a bulk request's JSON. */
  private static final int BULK_PREFIX = 9;

  private final String taskId;
  private final String containerId;
  private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final Map<Long, OutputSink> sinks = new ConcurrentHashMap<>();
  private final Map<Long, TerminalSink> terminals = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final FrameDecoder decoder = new FrameDecoder(MAX_FRAME);
  /** Raw terminal output of the socket read being parsed, per session: handed on as one chunk (guarded by decoder). */
  private final Map<Long, ByteArrayOutputStream> readOutput = new LinkedHashMap<>();
  private final StringBuilder stderrTail = new StringBuilder();
  private volatile ExecStream stream;
  private volatile WorkcellException closed;
  /** celld announced in its ping that it reads bulk request frames. */
  private volatile boolean bulkRequests;

  CelldConnection(String taskId, String containerId) {
    this.taskId = taskId;
    this.containerId = containerId;
  }

  void attach(ExecStream exec) {
    this.stream = exec;
    if (closed != null) {
      exec.close();
    }
  }

  /**
   * Whether {@link CelldRequest.Raw} requests go as bulk request frames: only once celld said in its
   * ping that it reads them (an older celld would take one for a malformed frame and exit).
   */
  void bulkRequests(boolean accepted) {
    this.bulkRequests = accepted;
  }

  public String containerId() {
    return containerId;
  }

  public boolean open() {
    ExecStream current = stream;
    return closed == null && current != null && current.open();
  }

  /** A request on its way: its celld id (for {@link #cancel(long)}) and its reply. */
  public record Sent(long id, CompletableFuture<JsonNode> reply) {}

  /** Receives a request's streamed output events, in order, on the connection's reader thread: must not block. */
  @FunctionalInterface
  public interface OutputSink {
    void output(String stream, String data);
  }

  /**
   * Receives a terminal session's events (see {@link CelldRequest.PtyOpen}) on the connection's
   * reader thread: must not block. Output is raw bytes as the terminal wrote them.
   */
  public interface TerminalSink {
    void started(long pid);

    void output(byte[] data);
  }

  /**
   * One request frame as celld reads it: the request's fields, then {@code id} and {@code op}. A
   * null request (only {@link #call(String, Void, Duration)}) has no fields.
   */
  private record Frame(@JsonUnwrapped CelldRequest request, long id, String op) {}

  /** A bulk request frame's JSON: the request without its raw field, then {@code id}, {@code op} and the field's name. */
  private record BulkHead(@JsonUnwrapped CelldRequest request, long id, String op, String bulk) {}

  /** {@link #send(CelldRequest)}, with the request's output events going to {@code sink} until its reply. */
  public Sent send(CelldRequest request, OutputSink sink) {
    return sendRouted(request, sinks, sink);
  }

  /**
   * Opens a terminal session: its events go to {@code sink}; the reply (the exit status) completes
   * when the session ends, so it has no timeout. The returned id names the session.
   */
  public Sent open(CelldRequest.PtyOpen request, TerminalSink sink) {
    return sendRouted(request, terminals, sink);
  }

  /**
   * Opens a port stream (decision 0020): like a terminal, its output goes to {@code sink} (started
   * once connected, with pid 0) and its reply comes when the connection ends.
   */
  public Sent open(CelldRequest.TcpOpen request, TerminalSink sink) {
    return sendRouted(request, terminals, sink);
  }

  /** Sends a request whose events go to {@code sink} (registered in {@code routes}) until its reply. */
  private <S> Sent sendRouted(CelldRequest request, Map<Long, S> routes, S sink) {
    Sent sent = send(request.op(), request, id -> routes.put(id, sink));
    sent.reply().whenComplete((result, failure) -> routes.remove(sent.id()));
    return sent;
  }

  /** Sends one request and waits for its reply's {@code result}; failures carry celld's mapped code. */
  public JsonNode call(CelldRequest request, Duration timeout) {
    Sent sent = send(request);
    return await(sent.id(), sent.reply(), timeout);
  }

  /**
   * A frame with only {@code id} and {@code op}, whatever the op: for scripted peers that answer by
   * id alone (CelldConnectionTest). Production code sends a {@link CelldRequest}.
   */
  JsonNode call(String op, Void noArguments, Duration timeout) {
    Sent sent = send(op, null, id -> { });
    return await(sent.id(), sent.reply(), timeout);
  }

  /**
   * Sends one request without waiting: the future completes with the result, or fails with celld's
   * mapped code, or with {@code upstream_timeout} after {@code timeout} (the request is then cancelled).
   */
  public CompletableFuture<JsonNode> callAsync(CelldRequest request, Duration timeout) {
    return awaitAsync(send(request), timeout);
  }

  /**
   * The reply of a sent request without holding a thread: completes on the connection's reader
   * thread with the result, celld's mapped failure, or {@code upstream_timeout} after {@code timeout}
   * (the request is then cancelled in celld).
   */
  public CompletableFuture<JsonNode> awaitAsync(Sent sent, Duration timeout) {
    CompletableFuture<JsonNode> out = new CompletableFuture<>();
    sent.reply().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((result, thrown) -> {
      Throwable failure = thrown instanceof CompletionException wrapped && wrapped.getCause() != null ? wrapped.getCause() : thrown;
      if (failure == null) {
        out.complete(result);
      } else if (failure instanceof TimeoutException) {
        pending.remove(sent.id());
        cancel(sent.id());
        out.completeExceptionally(new WorkcellException(ErrorCode.UPSTREAM_TIMEOUT,
            "celld did not answer " + sent.id() + " within " + timeout.toSeconds() + " s"));
      } else {
        out.completeExceptionally(failure instanceof WorkcellException known
            ? new WorkcellException(known.code(), known.getMessage(), known)
            : new WorkcellException(ErrorCode.INTERNAL, "celld call failed", failure));
      }
    });
    return out;
  }

  /** Writes one request frame; the reply arrives on the returned future. */
  public Sent send(CelldRequest request) {
    return send(request.op(), request, id -> { });
  }

  private Sent send(String op, CelldRequest request, LongConsumer beforeWrite) {
    long id = ids.incrementAndGet();
    byte[] frame;
    if (request instanceof CelldRequest.Raw raw) {
      frame = bulkRequests ? encodeBulk(raw, id, op) : encode(new Frame(raw.plain(), id, op));
    } else {
      frame = encode(new Frame(request, id, op));
    }
    if (frame.length - 4 > MAX_FRAME) {
      throw new WorkcellException(ErrorCode.PAYLOAD_TOO_LARGE, "the request exceeds celld's 8 MiB frame limit");
    }
    CompletableFuture<JsonNode> reply = new CompletableFuture<>();
    pending.put(id, reply);
    beforeWrite.accept(id);
    WorkcellException gone = closed;
    if (gone != null || stream == null) {
      pending.remove(id);
      sinks.remove(id);
      terminals.remove(id);
      throw gone != null ? gone : new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "celld is not attached");
    }
    try {
      stream.write(frame);
    } catch (RequestQueueFull full) {
      // Only this request is refused: the ones already queued still get their answers (or time out).
      pending.remove(id);
      sinks.remove(id);
      throw new WorkcellException(ErrorCode.SANDBOX_BUSY, full.getMessage());
    } catch (IOException e) {
      pending.remove(id);
      sinks.remove(id);
      close(new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "celld stopped reading requests: " + e.getMessage()));
      throw closed;
    }
    return new Sent(id, reply);
  }

  private JsonNode await(long id, CompletableFuture<JsonNode> reply, Duration timeout) {
    try {
      return reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending.remove(id);
      cancel(id);
      throw new WorkcellException(ErrorCode.UPSTREAM_TIMEOUT, "celld did not answer " + id + " within " + timeout.toSeconds() + " s");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WorkcellException known) {
        // A fresh exception per caller keeps this caller's stack; the code and message are celld's.
        throw new WorkcellException(known.code(), known.getMessage(), known);
      }
      throw new WorkcellException(ErrorCode.INTERNAL, "celld call failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      pending.remove(id);
      cancel(id);
      throw new WorkcellException(ErrorCode.CANCELLED, "interrupted while waiting for celld");
    }
  }

  /**
   * Asks celld to cancel a request in flight (fire and forget): an exec is terminated and answers
   * {@code cancelled}; an abandoned request's late reply is dropped as unknown.
   */
  public void cancel(long target) {
    CelldRequest cancel = new CelldRequest.Cancel(target);
    try {
      ExecStream current = stream;
      if (current != null && closed == null) {
        current.write(encode(new Frame(cancel, ids.incrementAndGet(), cancel.op())));
      }
    } catch (IOException e) {
      Log.debugf("cancel of %d not sent: %s", target, e.getMessage());
    }
  }

  /**
   * A reply whose large text field (a file's content) follows its JSON raw: byte 0, the JSON's
   * length, the JSON naming the field in {@code bulk}, the field's UTF-8 bytes. One copy to a String,
   * where a JSON string of 2 MB costs about 10 MB of parse buffers.
   */
  private static JsonNode bulkFrame(byte[] body) throws IOException {
    int length = bulkJsonLength(body);
    JsonNode frame = JSON.readTree(body, 5, length);
    if (frame == null || !frame.path("bulk").isTextual() || !(frame.get("result") instanceof ObjectNode result)) {
      throw new CelldProtocolException("bulk frame names no field of an object result");
    }
    int from = 5 + length;
    result.put(frame.get("bulk").textValue(), new String(body, from, body.length - from, StandardCharsets.UTF_8));
    return frame;
  }

  private static int bulkJsonLength(byte[] body) {
    int length = body.length < 5 ? -1 : ByteBuffer.wrap(body, 1, 4).getInt();
    if (length < 0 || length > body.length - 5) {
      throw new CelldProtocolException("bulk frame's JSON length does not fit the frame");
    }
    return length;
  }

  /**
   * A terminal's output as a bulk frame (pty_open's {@code rawOutput}): the JSON names the session
   * and {@code "bulk":"data"}, the bytes follow raw (no base64). What one socket read brought for a
   * session is handed to its sink as one chunk, up to {@link #OUTPUT_CHUNK}, once the read is parsed
   * or before any other frame: under a flood celld's events are a pty read (a few KiB) each, and
   * each chunk costs a NATS message and wake-ups on every hop after this one; an echo, alone in its
   * read, goes on at once. False when the bulk frame is something else (a reply).
   */
  private boolean terminalOutput(byte[] body) throws IOException {
    int length = bulkJsonLength(body);
    JsonNode head = JSON.readTree(body, 5, length);
    if (head == null || !"pty_output".equals(head.path("event").textValue())) {
      return false;
    }
    JsonNode id = head.get("id");
    if (id == null || !id.canConvertToLong() || !"data".equals(head.path("bulk").textValue())) {
      throw new CelldProtocolException("terminal output frame has no id or names no data");
    }
    ByteArrayOutputStream pending = readOutput.computeIfAbsent(id.longValue(), k -> new ByteArrayOutputStream());
    int from = 5 + length;
    if (pending.size() > 0 && pending.size() + body.length - from > OUTPUT_CHUNK) {
      deliverOutput(id.longValue(), pending);
    }
    pending.write(body, from, body.length - from);
    return true;
  }

  /** Hands on the terminal output gathered from the read so far, in order. */
  private void flushOutput() {
    if (!readOutput.isEmpty()) {
      readOutput.forEach(this::deliverOutput);
      readOutput.clear();
    }
  }

  private void deliverOutput(long id, ByteArrayOutputStream pending) {
    TerminalSink sink = terminals.get(id);
    if (sink != null && pending.size() > 0) {
      try {
        sink.output(pending.toByteArray());
      } catch (RuntimeException e) {
        Log.debugf("terminal sink of %d failed: %s", id, e.getMessage());
      }
    }
    pending.reset();
  }

  /**
   * The whole frame, length prefix included, serialised once into one growing buffer: the body
   * (up to 8 MiB for a write) is not copied again to put the prefix in front.
   */
  private static byte[] encode(Frame frame) {
    ByteArrayBuilder out = new ByteArrayBuilder();
    byte[] bytes;
    try {
      out.appendFourBytes(0);
      REQUESTS.writeValue(out, frame);
      bytes = out.toByteArray();
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.INTERNAL, "cannot encode a celld request", e);
    }
    putInt(bytes, 0, bytes.length - 4);
    return bytes;
  }

  /**
   * A bulk request frame: the length prefix, byte 0 (no JSON text starts with it), the JSON's length
   * (4 bytes, big-endian), the JSON naming the raw field in {@code bulk}, then the field's bytes as
   * they are. The bytes are copied once, into the frame; nothing is escaped or base64-encoded.
   */
  private static byte[] encodeBulk(CelldRequest.Raw request, long id, String op) {
    byte[] raw = request.raw();
    if (raw == null) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, request.rawField() + " is required");
    }
    ByteArrayBuilder out = new ByteArrayBuilder();
    byte[] head;
    try {
      out.appendFourBytes(0);
      out.append(BULK_FRAME);
      out.appendFourBytes(0);
      BULK_HEADS.writeValue(out, new BulkHead(request.head(), id, op, request.rawField()));
      head = out.toByteArray();
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.INTERNAL, "cannot encode a celld request", e);
    }
    byte[] frame = Arrays.copyOf(head, head.length + raw.length);
    System.arraycopy(raw, 0, frame, head.length, raw.length);
    putInt(frame, 0, frame.length - 4);
    putInt(frame, 5, head.length - BULK_PREFIX);
    return frame;
  }

  private static void putInt(byte[] into, int at, int value) {
    into[at] = (byte) (value >>> 24);
    into[at + 1] = (byte) (value >>> 16);
    into[at + 2] = (byte) (value >>> 8);
    into[at + 3] = (byte) value;
  }

  @Override
  public void stdout(byte[] data) {
    synchronized (decoder) {
      try {
        decoder.feed(data, this::onFrame);
        flushOutput();
      } catch (CelldProtocolException e) {
        readOutput.clear();
        Log.warnf("celld of %s broke the protocol, closing: %s", taskId, e.getMessage());
        close(new WorkcellException(ErrorCode.INTERNAL, "celld sent a malformed frame: " + e.getMessage()));
      }
    }
  }

  private void onFrame(byte[] body) {
    JsonNode frame;
    try {
      if (body.length > 0 && body[0] == BULK_FRAME && terminalOutput(body)) {
        return;
      }
      flushOutput(); // output first: a session's end (its reply) must follow all of its output
      frame = body.length > 0 && body[0] == BULK_FRAME ? bulkFrame(body) : JSON.readTree(body);
    } catch (IOException e) {
      throw new CelldProtocolException("frame is not valid JSON", e);
    }
    if (frame == null || !frame.isObject()) {
      throw new CelldProtocolException("frame is not a JSON object");
    }
    JsonNode idNode = frame.get("id");
    if (idNode == null || !idNode.isIntegralNumber() || !idNode.canConvertToLong() || idNode.longValue() < 0) {
      throw new CelldProtocolException("frame has no valid id");
    }
    long id = idNode.longValue();
    if (frame.has("event")) {
      try {
        deliver(id, frame);
      } catch (CelldProtocolException e) {
        throw e;
      } catch (RuntimeException e) {
        Log.debugf("event sink of %d failed: %s", id, e.getMessage());
      }
      return;
    }
    JsonNode ok = frame.get("ok");
    if (ok == null || !ok.isBoolean()) {
      throw new CelldProtocolException("reply has no boolean ok");
    }
    if (id == 0) {
      throw new CelldProtocolException("celld refused one of our frames: " + errorText(frame));
    }
    CompletableFuture<JsonNode> reply = pending.remove(id);
    if (ok.booleanValue()) {
      JsonNode result = frame.get("result");
      if (result == null || result.isNull()) {
        result = JSON.createObjectNode();
      } else if (!result.isObject()) {
        throw new CelldProtocolException("result of " + id + " is not an object");
      }
      if (reply != null) {
        reply.complete(result);
      }
    } else {
      JsonNode error = frame.get("error");
      if (error == null || !error.isObject() || !error.path("code").isTextual() || error.path("code").textValue().length() > 64) {
        throw new CelldProtocolException("error reply of " + id + " has no valid error object");
      }
      if (reply != null) {
        reply.completeExceptionally(CelldErrors.toException(error.get("code").textValue(), error.path("message").asText("")));
      }
    }
    if (reply == null) {
      Log.debugf("celld of %s answered unknown or abandoned request %d", taskId, id);
    }
  }

  /**
   * Streamed output goes to a request's sink if it asked for one (an exec's final reply carries the
   * capped result); a terminal's output and start go to its terminal sink. Anything else is a
   * protocol violation.
   */
  private void deliver(long id, JsonNode frame) {
    String event = frame.path("event").textValue();
    JsonNode data = frame.path("data");
    if ("output".equals(event) && data.isTextual()
        && ("stdout".equals(frame.path("stream").textValue()) || "stderr".equals(frame.path("stream").textValue()))) {
      OutputSink sink = sinks.get(id);
      if (sink != null) {
        sink.output(frame.get("stream").textValue(), data.textValue());
      }
    } else if (("pty_output".equals(event) || "tcp_output".equals(event)) && data.isTextual()) {
      byte[] bytes;
      try {
        bytes = Base64.getDecoder().decode(data.textValue());
      } catch (IllegalArgumentException e) {
        throw new CelldProtocolException("terminal output is not base64", e);
      }
      TerminalSink sink = terminals.get(id);
      if (sink != null) {
        sink.output(bytes);
      }
    } else if ("pty_started".equals(event) && frame.path("pid").canConvertToLong()) {
      TerminalSink sink = terminals.get(id);
      if (sink != null) {
        sink.started(frame.get("pid").longValue());
      }
    } else if ("tcp_connected".equals(event)) {
      TerminalSink sink = terminals.get(id);
      if (sink != null) {
        sink.started(0);
      }
    } else {
      throw new CelldProtocolException("unknown event frame");
    }
  }

  private static String errorText(JsonNode frame) {
    JsonNode error = frame.path("error");
    return CelldErrors.sanitize(error.path("code").asText("") + ": " + error.path("message").asText(""));
  }

  @Override
  public void stderr(byte[] data) {
    synchronized (stderrTail) {
      stderrTail.append(CelldErrors.sanitize(new String(data, StandardCharsets.UTF_8)));
      if (stderrTail.length() > STDERR_TAIL_CHARS) {
        stderrTail.delete(0, stderrTail.length() - STDERR_TAIL_CHARS);
      }
    }
  }

  @Override
  public void closed(Throwable cause) {
    String why = cause == null ? "celld's stream ended" : "celld's stream failed: " + cause.getMessage();
    markClosed(new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, why + stderrSuffix()));
  }

  /** Ends the exec (celld sees EOF and cleans up) and fails every waiting request. */
  public void close(WorkcellException reason) {
    markClosed(reason);
    ExecStream current = stream;
    if (current != null) {
      current.close();
    }
  }

  private void markClosed(WorkcellException reason) {
    synchronized (pending) {
      if (closed != null) {
        return;
      }
      closed = reason;
    }
    pending.values().forEach(reply -> reply.completeExceptionally(reason));
    pending.clear();
    sinks.clear();
    terminals.clear();
  }

  /**
   * For the exec that started a celld serving over its socket: stderr and the exec's end reach this
   * connection; stdout carries nothing then and is ignored.
   */
  ExecStream.Listener execSideListener() {
    CelldConnection connection = this;
    return new ExecStream.Listener() {
      @Override
      public void stdout(byte[] data) {
        // frames travel over the socket
      }

      @Override
      public void stderr(byte[] data) {
        connection.stderr(data);
      }

      @Override
      public void closed(Throwable cause) {
        connection.closed(cause);
      }
    };
  }

  String stderrSuffix() {
    synchronized (stderrTail) {
      return stderrTail.isEmpty() ? "" : " (celld stderr: " + stderrTail.toString().strip() + ")";
    }
  }
}
