package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.runtime.ExecStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pins the request frames: each expected string is the frame the hand-built Jackson nodes wrote before
 * the {@link CelldRequest} records (same values, same key order, absent optionals left out), so celld
 * reads exactly what it read before. Frames are taken from a real {@link CelldConnection}.
 */
class CelldRequestWireTest {

  private static final String TEXT = "line \"one\"\n<b>\u00e9 \u00fc \uD83D\uDE00\\ \u2028 tab\t";
  private static final String TEXT_JSON = "line \\\"one\\\"\\n<b>\u00e9 \u00fc \\uD83D\\uDE00\\\\ \u2028 tab\\t";
  private static final byte[] BINARY = {(byte) 0xfb, (byte) 0xef, (byte) 0xff, 0, 'a', '\n', (byte) 0x80};
  private static final String PID = "0123456789ab";
  private static final String ENV_JSON = "{\"ZED\":\"1\",\"A\":\"\",\"M\":\"x=y\"}";

  private record Case(CelldRequest request, String frame) {}

  /** Each request as a call site builds it, and the frame body the old code wrote for it (id 1). */
  private static List<Case> cases() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("ZED", "1");
    env.put("A", "");
    env.put("M", "x=y");
    return List.of(
        new Case(new CelldRequest.Ping(), "{\"id\":1,\"op\":\"ping\"}"),
        new Case(new CelldRequest.ListDir("src/main"), "{\"path\":\"src/main\",\"id\":1,\"op\":\"list\"}"),
        new Case(new CelldRequest.Stat("a.txt"), "{\"path\":\"a.txt\",\"id\":1,\"op\":\"stat\"}"),
        new Case(new CelldRequest.Read("a.txt"), "{\"path\":\"a.txt\",\"id\":1,\"op\":\"read\"}"),
        new Case(new CelldRequest.ReadBytes("a.bin", 5, 100), "{\"path\":\"a.bin\",\"offset\":5,\"limit\":100,\"id\":1,\"op\":\"read_bytes\"}"),
        new Case(new CelldRequest.Write("a.txt", TEXT, true, null),
            "{\"path\":\"a.txt\",\"content\":\"" + TEXT_JSON + "\",\"createParents\":true,\"id\":1,\"op\":\"write\"}"),
        new Case(new CelldRequest.Write("a.txt", TEXT, false, "v1"),
            "{\"path\":\"a.txt\",\"content\":\"" + TEXT_JSON + "\",\"createParents\":false,\"expectedVersion\":\"v1\",\"id\":1,\"op\":\"write\"}"),
        // What a text write sends to a celld without bulk requests: the same frame as Write's.
        new Case(new CelldRequest.WriteText("a.txt", TEXT.getBytes(StandardCharsets.UTF_8), true, null),
            "{\"path\":\"a.txt\",\"content\":\"" + TEXT_JSON + "\",\"createParents\":true,\"id\":1,\"op\":\"write\"}"),
        new Case(new CelldRequest.WriteBytes("b.bin", BINARY, true, null),
            "{\"path\":\"b.bin\",\"data\":\"++//AGEKgA==\",\"createParents\":true,\"id\":1,\"op\":\"write_bytes\"}"),
        new Case(new CelldRequest.WriteBytes("b.bin", BINARY, false, "v2"),
            "{\"path\":\"b.bin\",\"data\":\"++//AGEKgA==\",\"createParents\":false,\"expectedVersion\":\"v2\",\"id\":1,\"op\":\"write_bytes\"}"),
        new Case(new CelldRequest.WritePart("r/b.bin", "0123456789abcdef", 2_000_000, BINARY, false, true, null),
            "{\"path\":\"r/b.bin\",\"upload\":\"0123456789abcdef\",\"offset\":2000000,\"data\":\"++//AGEKgA==\",\"last\":false,"
            + "\"createParents\":true,\"id\":1,\"op\":\"write_part\"}"),
        new Case(new CelldRequest.WritePart("r/b.bin", "0123456789abcdef", 0, BINARY, true, false, 0755),
            "{\"path\":\"r/b.bin\",\"upload\":\"0123456789abcdef\",\"offset\":0,\"data\":\"++//AGEKgA==\",\"last\":true,"
            + "\"createParents\":false,\"mode\":493,\"id\":1,\"op\":\"write_part\"}"),
        new Case(new CelldRequest.Mkdir("d/e", true), "{\"path\":\"d/e\",\"parents\":true,\"id\":1,\"op\":\"mkdir\"}"),
        new Case(new CelldRequest.Delete("d", false), "{\"path\":\"d\",\"recursive\":false,\"id\":1,\"op\":\"delete\"}"),
        new Case(new CelldRequest.Move("a.txt", "b.txt"), "{\"from\":\"a.txt\",\"to\":\"b.txt\",\"id\":1,\"op\":\"move\"}"),
        new Case(new CelldRequest.Search(".", "needle", 50), "{\"path\":\".\",\"query\":\"needle\",\"maxHits\":50,\"id\":1,\"op\":\"search\"}"),
        new Case(new CelldRequest.Grep(".", "a.*b", true, false, true, 50, null), "{\"path\":\".\",\"query\":\"a.*b\",\"regex\":true,"
            + "\"caseInsensitive\":false,\"matchPerLine\":true,\"maxResults\":50,\"id\":1,\"op\":\"grep\"}"),
        new Case(new CelldRequest.Grep("src", "x", false, true, false, 1000, "*.go"), "{\"path\":\"src\",\"query\":\"x\",\"regex\":false,"
            + "\"caseInsensitive\":true,\"matchPerLine\":false,\"maxResults\":1000,\"include\":\"*.go\",\"id\":1,\"op\":\"grep\"}"),
        new Case(new CelldRequest.Glob(".", "**/*.java", "any", 50, null),
            "{\"path\":\".\",\"pattern\":\"**/*.java\",\"type\":\"any\",\"maxResults\":50,\"id\":1,\"op\":\"glob\"}"),
        new Case(new CelldRequest.Glob(".", "*", "directory", 3, "node_modules"),
            "{\"path\":\".\",\"pattern\":\"*\",\"type\":\"directory\",\"maxResults\":3,\"exclude\":\"node_modules\",\"id\":1,\"op\":\"glob\"}"),
        new Case(new CelldRequest.Exec("ls -la", 30, null, null), "{\"command\":\"ls -la\",\"timeoutSec\":30,\"id\":1,\"op\":\"exec\"}"),
        new Case(new CelldRequest.Exec("env", 5, "sub", env),
            "{\"command\":\"env\",\"timeoutSec\":5,\"cwd\":\"sub\",\"env\":" + ENV_JSON + ",\"id\":1,\"op\":\"exec\"}"),
        new Case(new CelldRequest.Exec(":", 10, null, null), "{\"command\":\":\",\"timeoutSec\":10,\"id\":1,\"op\":\"exec\"}"),
        new Case(new CelldRequest.Exec("git status", 20, null, Map.of(), true, 1000),
            "{\"command\":\"git status\",\"timeoutSec\":20,\"quiet\":true,\"maxOutput\":1000,\"env\":{},\"id\":1,\"op\":\"exec\"}"),
        new Case(new CelldRequest.Exec("git status", 20, null, Map.of("WORKCELL_GIT_PATH", "sub/dir"), true, 1000), "{\"command\":\"git status\","
            + "\"timeoutSec\":20,\"quiet\":true,\"maxOutput\":1000,\"env\":{\"WORKCELL_GIT_PATH\":\"sub/dir\"},\"id\":1,\"op\":\"exec\"}"),
        new Case(new CelldRequest.ProcStart("sleep 1", 0, null, null, null, null), "{\"command\":\"sleep 1\",\"waitMs\":0,\"id\":1,\"op\":\"proc_start\"}"),
        new Case(new CelldRequest.ProcStart("sleep 1", 2500, "w", env, 20, null),
            "{\"command\":\"sleep 1\",\"waitMs\":2500,\"cwd\":\"w\",\"env\":" + ENV_JSON + ",\"tail\":20,\"id\":1,\"op\":\"proc_start\"}"),
        new Case(new CelldRequest.ProcStart("python3", 0, null, null, null, true),
            "{\"command\":\"python3\",\"waitMs\":0,\"tty\":true,\"id\":1,\"op\":\"proc_start\"}"),
        new Case(new CelldRequest.PtyOpen(null, null, null, null, null, null), "{\"id\":1,\"op\":\"pty_open\"}"),
        new Case(new CelldRequest.PtyOpen(120, 40, "w", env, "top", 65_536), "{\"cols\":120,\"rows\":40,\"cwd\":\"w\",\"env\":"
            + ENV_JSON + ",\"command\":\"top\",\"window\":65536,\"id\":1,\"op\":\"pty_open\"}"),
        new Case(new CelldRequest.PtyInput(7, new byte[] {3}), "{\"session\":7,\"data\":\"Aw==\",\"id\":1,\"op\":\"pty_input\"}"),
        new Case(new CelldRequest.PtyResize(7, 100, 30), "{\"session\":7,\"cols\":100,\"rows\":30,\"id\":1,\"op\":\"pty_resize\"}"),
        new Case(new CelldRequest.PtyAck(7, 4096), "{\"session\":7,\"bytes\":4096,\"id\":1,\"op\":\"pty_ack\"}"),
        new Case(new CelldRequest.PtyClose(7), "{\"session\":7,\"id\":1,\"op\":\"pty_close\"}"),
        new Case(new CelldRequest.ProcStatus(PID, 7, 0, null),
            "{\"processId\":\"0123456789ab\",\"offset\":7,\"waitMs\":0,\"id\":1,\"op\":\"proc_status\"}"),
        new Case(new CelldRequest.ProcStatus(PID, 0, 1000, 0),
            "{\"processId\":\"0123456789ab\",\"offset\":0,\"waitMs\":1000,\"tail\":0,\"id\":1,\"op\":\"proc_status\"}"),
        new Case(new CelldRequest.ProcInput(PID, "hello\n"), "{\"processId\":\"0123456789ab\",\"data\":\"hello\\n\",\"id\":1,\"op\":\"proc_input\"}"),
        new Case(new CelldRequest.ProcKill(PID, true), "{\"processId\":\"0123456789ab\",\"force\":true,\"id\":1,\"op\":\"proc_kill\"}"),
        new Case(new CelldRequest.ProcList(), "{\"id\":1,\"op\":\"proc_list\"}"),
        new Case(new CelldRequest.Ports(), "{\"id\":1,\"op\":\"ports\"}"),
        new Case(new CelldRequest.TcpOpen(8000, 262_144), "{\"port\":8000,\"window\":262144,\"id\":1,\"op\":\"tcp_open\"}"),
        new Case(new CelldRequest.TcpOpen(8000, null), "{\"port\":8000,\"id\":1,\"op\":\"tcp_open\"}"),
        new Case(new CelldRequest.TcpWrite(7, new byte[] {3}), "{\"stream\":7,\"data\":\"Aw==\",\"id\":1,\"op\":\"tcp_write\"}"),
        new Case(new CelldRequest.TcpAck(7, 4096), "{\"stream\":7,\"bytes\":4096,\"id\":1,\"op\":\"tcp_ack\"}"),
        new Case(new CelldRequest.TcpClose(7), "{\"stream\":7,\"id\":1,\"op\":\"tcp_close\"}"),
        new Case(new CelldRequest.PreviewStart("npm run dev", 3000), "{\"command\":\"npm run dev\",\"port\":3000,\"id\":1,\"op\":\"preview_start\"}"),
        new Case(new CelldRequest.PreviewStop(), "{\"id\":1,\"op\":\"preview_stop\"}"),
        new Case(new CelldRequest.PreviewStatus(), "{\"id\":1,\"op\":\"preview_status\"}"));
  }

  /** Keeps every frame written, as bytes. */
  private static final class Capture implements ExecStream {
    final List<byte[]> frames = new ArrayList<>();

    @Override
    public void write(byte[] data) {
      frames.add(data);
    }

    @Override
    public boolean open() {
      return true;
    }

    @Override
    public void close() {}
  }

  /** The body of the first frame a fresh connection writes for {@code request} (its id is 1). */
  private static String frameOf(CelldRequest request) {
    Capture peer = new Capture();
    CelldConnection connection = new CelldConnection("t-wire", "container");
    connection.attach(peer);
    connection.send(request);
    return body(peer.frames.getFirst());
  }

  private static String body(byte[] frame) {
    int length = ((frame[0] & 0xff) << 24) | ((frame[1] & 0xff) << 16) | ((frame[2] & 0xff) << 8) | (frame[3] & 0xff);
    assertThat(length).as("length prefix").isEqualTo(frame.length - 4);
    return new String(frame, 4, length, StandardCharsets.UTF_8);
  }

  @Test
  void eachRequestWritesTheFrameTheHandBuiltNodesWrote() {
    for (Case c : cases()) {
      assertThat(frameOf(c.request())).as(c.request().op()).isEqualTo(c.frame());
    }
  }

  /**
   * A celld that announced {@code bulkRequests} gets writes as bulk request frames: byte 0, the JSON's
   * length, the JSON without the raw field and naming it in {@code bulk}, then the bytes as they are.
   * The text write's frame is byte for byte the one celld's bulk_test.go pins ({@code pinnedBulkWrite}).
   */
  @Test
  void writesToACelldWithBulkRequestsCarryTheirBytesRaw() {
    byte[] text = "h\u00e9\u0001\"\\\n".getBytes(StandardCharsets.UTF_8);
    assertThat(bulkFrameOf(new CelldRequest.WriteText("a.txt", text, true, null))).isEqualTo(
        concat(new byte[] {0, 0, 0, 0, 0x4a}, ascii("{\"path\":\"a.txt\",\"createParents\":true,\"id\":1,\"op\":\"write\",\"bulk\":\"content\"}"), text));
    String head = "{\"path\":\"b.bin\",\"createParents\":false,\"expectedVersion\":\"v2\",\"id\":1,\"op\":\"write_bytes\",\"bulk\":\"data\"}";
    assertThat(bulkFrameOf(new CelldRequest.WriteBytes("b.bin", BINARY, false, "v2")))
        .isEqualTo(concat(new byte[] {0, 0, 0, 0, (byte) head.length()}, ascii(head), BINARY));
    head = "{\"path\":\"r/b.bin\",\"upload\":\"0123456789abcdef\",\"offset\":0,\"last\":true,\"createParents\":false,"
        + "\"mode\":493,\"id\":1,\"op\":\"write_part\",\"bulk\":\"data\"}";
    assertThat(bulkFrameOf(new CelldRequest.WritePart("r/b.bin", "0123456789abcdef", 0, BINARY, true, false, 0755)))
        .isEqualTo(concat(new byte[] {0, 0, 0, 0, (byte) head.length()}, ascii(head), BINARY));
    // Requests without a raw field stay plain JSON.
    assertThat(new String(bulkFrameOf(new CelldRequest.Read("a.txt")), StandardCharsets.UTF_8))
        .isEqualTo("{\"path\":\"a.txt\",\"id\":1,\"op\":\"read\"}");
  }

  /** Text that is not UTF-8 never reaches a celld without bulk requests as replacement characters: it is refused. */
  @Test
  void textThatIsNotUtf8IsRefusedBeforeAPlainWrite() {
    CelldConnection connection = new CelldConnection("t-wire", "container");
    connection.attach(new Capture());
    assertThatThrownBy(() -> connection.send(new CelldRequest.WriteText("a.txt", new byte[] {'o', 'k', (byte) 0xff}, false, null)))
        .isInstanceOfSatisfying(WorkcellException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.NOT_UTF8);
          assertThat(e.getMessage()).contains("a.txt: content is not valid UTF-8");
        });
  }

  /** The body of the first frame a connection to a celld with bulk requests writes for {@code request}. */
  private static byte[] bulkFrameOf(CelldRequest request) {
    Capture peer = new Capture();
    CelldConnection connection = new CelldConnection("t-wire", "container");
    connection.attach(peer);
    connection.bulkRequests(true);
    connection.send(request);
    byte[] frame = peer.frames.getFirst();
    body(frame); // checks the length prefix
    return Arrays.copyOfRange(frame, 4, frame.length);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  /** A text write too large once escaped is resent as bytes: keys in another order than before, the same to celld (it decodes into a struct). */
  @Test
  void theTextWriteResentAsBytesMeansTheSame() throws IOException {
    String frame = frameOf(new CelldRequest.WriteBytes("a.txt", TEXT.getBytes(StandardCharsets.UTF_8), false, "v1"));
    assertThat(CelldConnection.JSON.readTree(frame)).isEqualTo(CelldConnection.JSON.readTree("{\"path\":\"a.txt\",\"createParents\":false,"
        + "\"expectedVersion\":\"v1\",\"data\":\"bGluZSAib25lIgo8Yj7DqSDDvCDwn5iAXCDigKggdGFiCQ==\",\"id\":1,\"op\":\"write_bytes\"}"));
  }

  /** The cancel's keys come in another order than before (id, op, target): the same to celld. */
  @Test
  void aCancelNamesItsTarget() throws IOException {
    Capture peer = new Capture();
    CelldConnection connection = new CelldConnection("t-wire", "container");
    connection.attach(peer);
    long target = connection.send(new CelldRequest.Ping()).id();
    connection.cancel(target);
    assertThat(CelldConnection.JSON.readTree(body(peer.frames.get(1))))
        .isEqualTo(CelldConnection.JSON.readTree("{\"id\":2,\"op\":\"cancel\",\"target\":1}"));
  }

  /** A new op gets a case here: every record but the cancel (pinned above) is in {@link #cases()}. */
  @Test
  void everyRequestRecordIsPinned() {
    List<Class<?>> pinned = new ArrayList<>(cases().stream().map(c -> (Class<?>) c.request().getClass()).distinct().toList());
    pinned.add(CelldRequest.Cancel.class);
    assertThat(pinned).containsExactlyInAnyOrder(CelldRequest.class.getPermittedSubclasses());
  }
}
