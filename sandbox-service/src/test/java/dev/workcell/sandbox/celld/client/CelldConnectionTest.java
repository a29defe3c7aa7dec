package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.ExecStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * celld's output is untrusted: the connection multiplexes by id, maps unknown codes to internal and
 * closes itself on oversized or malformed frames. A scripted peer stands in for celld here.
 */
class CelldConnectionTest {

  /** Captures request frames; the test answers through the listener side. */
  static final class ScriptedPeer implements ExecStream {
    final LinkedBlockingQueue<JsonNode> requests = new LinkedBlockingQueue<>();
    volatile boolean open = true;

    @Override
    public void write(byte[] data) {
      try {
        requests.add(CelldConnection.JSON.readTree(data, 4, data.length - 4));
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public boolean open() {
      return open;
    }

    @Override
    public void close() {
      open = false;
    }

    long nextId() throws InterruptedException {
      return requests.poll(5, TimeUnit.SECONDS).get("id").longValue();
    }
  }

  private final ScriptedPeer peer = new ScriptedPeer();
  private final CelldConnection connection = new CelldConnection("t-unit", "container");

  CelldConnectionTest() {
    connection.attach(peer);
  }

  private CompletableFuture<JsonNode> callAsync(String op) {
    return CompletableFuture.supplyAsync(() -> connection.call(op, null, Duration.ofSeconds(5)));
  }

  private void send(String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    connection.stdout(FrameDecoder.encode(body));
  }

  @Test
  void repliesFindTheirCallersInAnyOrderAndAcrossChunks() throws Exception {
    var first = callAsync("ping");
    long firstId = peer.nextId();
    var second = callAsync("ping");
    long secondId = peer.nextId();
    send("{\"id\":" + secondId + ",\"event\":\"output\",\"stream\":\"stdout\",\"data\":\"x\"}");
    byte[] frame = FrameDecoder.encode(("{\"id\":" + secondId + ",\"ok\":true,\"result\":{\"version\":\"b\"}}").getBytes(StandardCharsets.UTF_8));
    for (byte b : frame) {
      connection.stdout(new byte[] {b});
    }
    send("{\"id\":" + firstId + ",\"ok\":true,\"result\":{\"version\":\"a\"}}");
    assertThat(first.get(5, TimeUnit.SECONDS).get("version").textValue()).isEqualTo("a");
    assertThat(second.get(5, TimeUnit.SECONDS).get("version").textValue()).isEqualTo("b");
    assertThat(connection.open()).isTrue();
  }

  @Test
  void knownCodesPassAndUnknownOnesBecomeInternal() throws Exception {
    var escape = callAsync("read");
    send("{\"id\":" + peer.nextId() + ",\"ok\":false,\"error\":{\"code\":\"path_escape\",\"message\":\"no\"}}");
    assertThat(failure(escape).code()).isEqualTo(ErrorCode.PATH_ESCAPE);

    var forged = callAsync("read");
    send("{\"id\":" + peer.nextId() + ",\"ok\":false,\"error\":{\"code\":\"safe_mode\",\"message\":\"trust me\"}}");
    assertThat(failure(forged).code()).isEqualTo(ErrorCode.INTERNAL);

    var unknown = callAsync("read");
    send("{\"id\":" + peer.nextId() + ",\"ok\":false,\"error\":{\"code\":\"made_up\",\"message\":\"\\u0007bell\"}}");
    WorkcellException e = failure(unknown);
    assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL);
    assertThat(e.getMessage()).doesNotContain("\u0007");
  }

  @Test
  void anOversizedFrameClosesTheConnectionAndFailsWaiters() throws Exception {
    var waiting = callAsync("ping");
    peer.nextId();
    connection.stdout(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
    assertThat(failure(waiting).code()).isEqualTo(ErrorCode.INTERNAL);
    assertThat(connection.open()).isFalse();
    assertThat(peer.open).isFalse();
    assertThatThrownBy(() -> connection.call("ping", null, Duration.ofSeconds(1))).isInstanceOf(WorkcellException.class);
  }

  /** A terminal's events reach its sink as bytes, in order, until its reply; nobody else's sink sees them. */
  @Test
  void terminalEventsReachTheirSessionsSink() throws Exception {
    var seen = new java.util.ArrayList<String>();
    CelldConnection.TerminalSink sink = new CelldConnection.TerminalSink() {
      @Override
      public void started(long pid) {
        seen.add("pid " + pid);
      }

      @Override
      public void output(byte[] data) {
        seen.add(new String(data, StandardCharsets.UTF_8));
      }
    };
    CelldConnection.Sent session = connection.open(new CelldRequest.PtyOpen(80, 24, null, null, null, null), sink);
    assertThat(peer.nextId()).isEqualTo(session.id());
    send("{\"id\":" + session.id() + ",\"event\":\"pty_started\",\"pid\":42}");
    send("{\"id\":" + session.id() + ",\"event\":\"pty_output\",\"data\":\"aGkNCg==\"}");
    send("{\"id\":" + (session.id() + 7) + ",\"event\":\"pty_output\",\"data\":\"eA==\"}");
    send("{\"id\":" + session.id() + ",\"ok\":true,\"result\":{\"exitCode\":0,\"closed\":false}}");
    send("{\"id\":" + session.id() + ",\"event\":\"pty_output\",\"data\":\"bGF0ZQ==\"}");
    assertThat(session.reply().get(5, TimeUnit.SECONDS).get("exitCode").intValue()).isZero();
    assertThat(seen).containsExactly("pid 42", "hi\r\n");
    assertThat(connection.open()).isTrue();
  }

  /** rawOutput: a terminal's output as bulk frames reaches its sink byte for byte (bytes no JSON string could carry). */
  @Test
  void rawTerminalOutputReachesItsSinkByteForByte() throws Exception {
    var seen = new java.util.ArrayList<byte[]>();
    CelldConnection.TerminalSink sink = new CelldConnection.TerminalSink() {
      @Override
      public void started(long pid) {}

      @Override
      public void output(byte[] data) {
        seen.add(data);
      }
    };
    CelldConnection.Sent session = connection.open(new CelldRequest.PtyOpen(80, 24, null, null, null, null, true), sink);
    assertThat(peer.nextId()).isEqualTo(session.id());
    byte[] raw = {'A', (byte) 0xff, 0, (byte) 0x80, 'Z'};
    String head = "{\"id\":" + session.id() + ",\"event\":\"pty_output\",\"bulk\":\"data\"}";
    byte[] json = head.getBytes(StandardCharsets.UTF_8);
    connection.stdout(FrameDecoder.encode(java.nio.ByteBuffer.allocate(5 + json.length + raw.length)
        .put((byte) 0).putInt(json.length).put(json).put(raw).array()));
    send("{\"id\":" + session.id() + ",\"ok\":true,\"result\":{\"exitCode\":0,\"closed\":false}}");
    session.reply().get(5, TimeUnit.SECONDS);
    assertThat(seen).containsExactly(raw);

    String noData = "{\"id\":1,\"event\":\"pty_output\",\"bulk\":\"other\"}";
    CelldConnection fresh = new CelldConnection("t-unit", "container");
    fresh.attach(new ScriptedPeer());
    fresh.stdout(bulk(noData.length(), noData, "x"));
    assertThat(fresh.open()).as("a terminal output frame that names another field").isFalse();
  }

  /**
   * Under a flood one socket read brings many small output events of a session: they reach its sink
   * as one chunk (up to 32 KiB), in order, and all of them before the session's end in the same read.
   */
  @Test
  void aFloodsOutputEventsOfOneReadReachTheSinkAsOneChunkBeforeTheEnd() throws Exception {
    var seen = new java.util.ArrayList<String>();
    CelldConnection.TerminalSink sink = new CelldConnection.TerminalSink() {
      @Override
      public void started(long pid) {}

      @Override
      public void output(byte[] data) {
        seen.add(new String(data, StandardCharsets.UTF_8));
      }
    };
    CelldConnection.Sent session = connection.open(new CelldRequest.PtyOpen(80, 24, null, null, null, null, true), sink);
    assertThat(peer.nextId()).isEqualTo(session.id());
    String head = "{\"id\":" + session.id() + ",\"event\":\"pty_output\",\"bulk\":\"data\"}";
    var read = new java.io.ByteArrayOutputStream();
    for (String piece : new String[] {"y\r\n", "y\r\ny\r\n", "y\r\n"}) {
      read.writeBytes(bulk(head.length(), head, piece));
    }
    String big = "z".repeat(CelldConnection.OUTPUT_CHUNK - 2);
    read.writeBytes(bulk(head.length(), head, big)); // would pass 32 KiB together with the above
    read.writeBytes(FrameDecoder.encode(("{\"id\":" + session.id() + ",\"ok\":true,\"result\":{\"exitCode\":130,\"closed\":false}}")
        .getBytes(StandardCharsets.UTF_8)));
    var seenAtEnd = new java.util.concurrent.atomic.AtomicInteger(-1);
    session.reply().whenComplete((result, failure) -> seenAtEnd.set(seen.size()));

    connection.stdout(read.toByteArray());

    assertThat(session.reply().get(5, TimeUnit.SECONDS).get("exitCode").intValue()).isEqualTo(130);
    assertThat(seen).containsExactly("y\r\n".repeat(4), big);
    assertThat(seenAtEnd).as("all output before the end").hasValue(2);
  }

  @Test
  void malformedFramesCloseTheConnection() throws Exception {
    for (String bad : new String[] {"not json", "[1,2]", "{\"ok\":true}", "{\"id\":-1,\"ok\":true}", "{\"id\":1,\"id\":1,\"ok\":true}",
        "{\"id\":1,\"ok\":\"yes\"}", "{\"id\":1,\"event\":\"shell\",\"data\":\"x\"}", "{\"id\":0,\"ok\":false,\"error\":{\"code\":\"x\"}}",
        "{\"id\":1,\"event\":\"pty_output\",\"data\":\"not base64!\"}", "{\"id\":1,\"event\":\"pty_started\",\"pid\":\"x\"}"}) {
      CelldConnection fresh = new CelldConnection("t-unit", "container");
      ScriptedPeer p = new ScriptedPeer();
      fresh.attach(p);
      fresh.stdout(FrameDecoder.encode(bad.getBytes(StandardCharsets.UTF_8)));
      assertThat(fresh.open()).as(bad).isFalse();
    }
  }

  /** A bulk frame: byte 0, the JSON's length (as claimed), the JSON, the raw text. */
  private static byte[] bulk(int claimed, String json, String text) {
    byte[] head = json.getBytes(StandardCharsets.UTF_8);
    byte[] raw = text.getBytes(StandardCharsets.UTF_8);
    return FrameDecoder.encode(java.nio.ByteBuffer.allocate(5 + head.length + raw.length)
        .put((byte) 0).putInt(claimed).put(head).put(raw).array());
  }

  @Test
  void aBulkFrameDeliversItsRawTextAndAHostileOneClosesTheConnection() throws Exception {
    var read = callAsync("read");
    long id = peer.nextId();
    String json = "{\"id\":" + id + ",\"ok\":true,\"result\":{\"size\":9},\"bulk\":\"content\"}";
    connection.stdout(bulk(json.getBytes(StandardCharsets.UTF_8).length, json, "\"å\"\n✓"));
    assertThat(read.get(5, TimeUnit.SECONDS).get("content").textValue()).isEqualTo("\"å\"\n✓");

    String noField = "{\"id\":1,\"ok\":true,\"result\":{}}";
    String notObject = "{\"id\":1,\"ok\":true,\"result\":[1],\"bulk\":\"content\"}";
    for (byte[] hostile : new byte[][] {bulk(Integer.MAX_VALUE, json, "x"), bulk(-1, json, "x"), bulk(3, json, "x"),
        bulk(noField.length(), noField, "x"), bulk(notObject.length(), notObject, "x"), FrameDecoder.encode(new byte[] {0, 0})}) {
      CelldConnection fresh = new CelldConnection("t-unit", "container");
      fresh.attach(new ScriptedPeer());
      fresh.stdout(hostile);
      assertThat(fresh.open()).isFalse();
    }
  }

  @Test
  void aReplyThatDoesNotFitTheContractIsRefused() {
    JsonNode tooMany = CelldConnection.JSON.createObjectNode().put("truncated", false)
        .set("entries", CelldConnection.JSON.createArrayNode().add(CelldConnection.JSON.createObjectNode().put("name", 5)));
    assertThatThrownBy(() -> CelldReplies.fileList(".", tooMany)).isInstanceOfSatisfying(WorkcellException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL));
  }

  @Test
  void aTimedOutCallIsCancelledInCelld() throws Exception {
    assertThatThrownBy(() -> connection.call("search", null, Duration.ofMillis(200))).isInstanceOfSatisfying(WorkcellException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.UPSTREAM_TIMEOUT));
    JsonNode search = peer.requests.poll(1, TimeUnit.SECONDS);
    JsonNode cancel = peer.requests.poll(1, TimeUnit.SECONDS);
    assertThat(cancel.get("op").textValue()).isEqualTo("cancel");
    assertThat(cancel.get("target").longValue()).isEqualTo(search.get("id").longValue());
  }

  private static WorkcellException failure(CompletableFuture<JsonNode> call) throws InterruptedException {
    try {
      call.get(5, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure");
    } catch (java.util.concurrent.ExecutionException e) {
      return (WorkcellException) e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("no answer", e);
    }
  }
}
