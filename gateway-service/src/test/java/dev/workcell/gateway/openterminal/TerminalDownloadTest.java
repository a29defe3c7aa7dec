package dev.workcell.gateway.openterminal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.workcell.contracts.sandbox.ReadBytes;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Downloads (/files/view, /files/serve, /files/archive) stream as the sandbox reads: the gateway never holds a whole one. */
@QuarkusTest
class TerminalDownloadTest {

  static final String U = "download-user";
  /** 48 chunks of the 512 KiB the gateway asks sandbox-service for at a time. */
  static final int SIZE = 48 * 512 * 1024;

  @TestHTTPResource
  URL base;

  @BeforeEach
  void reset() {
    HomeSandboxFixture.reset();
  }

  @Test
  void aSlowReaderIsServedChunkByChunkWithTheFileSizeUpFront() throws Exception {
    byte[] big = new byte[SIZE];
    big[SIZE - 1] = 9;
    HomeSandboxFixture.put(U, "big.bin", big);
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET " + Terminal.BASE + "/files/view?path=big.bin HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
          + Terminal.KEY + "\r\nX-User-Id: " + U + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String head = headers(in);
      assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("content-length: " + SIZE)
          .containsIgnoringCase("x-content-type-options: nosniff");
      assertThat(in.readNBytes(64 * 1024)).hasSize(64 * 1024);
      Thread.sleep(1000);
      // Buffering the whole file first would have asked for all 48 chunks before the first byte went out.
      assertThat(chunksAsked()).isBetween(1L, 40L);
    }
  }

  @Test
  void aWholeDownloadHasEveryByte() {
    byte[] big = new byte[3 * 512 * 1024 + 17];
    big[big.length - 1] = 5;
    big[512 * 1024] = 3;
    HomeSandboxFixture.put(U, "odd.bin", big);
    byte[] got = Terminal.as(U).queryParam("path", "odd.bin").get("/files/view").then().statusCode(200)
        .header("Content-Length", equalTo(Integer.toString(big.length))).extract().asByteArray();
    assertThat(got).isEqualTo(big);
    assertThat(chunksAsked()).isEqualTo(4);
  }

  @Test
  void aMissingFileIsAProblemNotAnEmptyDownload() {
    Terminal.as(U).queryParam("path", "nothing.bin").get("/files/view").then().statusCode(404)
        .contentType("application/problem+json").body("code", equalTo("not_found"));
    Terminal.as(U).get("/files/serve/home/user/nothing.html").then().statusCode(404).contentType("application/problem+json");
  }

  @Test
  void anArchiveIsZippedAsItIsSentAndCappedBeforeItStarts() throws Exception {
    HomeSandboxFixture.put(U, "out/", new byte[0]);
    HomeSandboxFixture.put(U, "out/a.bin", noise(SIZE / 2));
    HomeSandboxFixture.put(U, "out/b.bin", noise(SIZE / 2));
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      String json = "{\"paths\":[\"out\"]}";
      OutputStream out = socket.getOutputStream();
      out.write(("POST " + Terminal.BASE + "/files/archive HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + Terminal.KEY
          + "\r\nX-User-Id: " + U + "\r\nContent-Type: application/json\r\nContent-Length: " + json.length() + "\r\n\r\n" + json)
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      assertThat(headers(in)).startsWith("HTTP/1.1 200").containsIgnoringCase("content-type: application/zip");
      assertThat(in.readNBytes(1024)).hasSize(1024);
      Thread.sleep(1000);
      assertThat(chunksAsked()).isBetween(1L, 40L);
    }
    byte[] zip = Terminal.as(U).contentType("application/json").body(Map.of("paths", List.of("out"))).post("/files/archive")
        .then().statusCode(200).extract().asByteArray();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
      assertThat(in.getNextEntry().getName()).isEqualTo("out/a.bin");
      assertThat(in.readAllBytes()).hasSize(SIZE / 2);
      assertThat(in.getNextEntry().getName()).isEqualTo("out/b.bin");
      assertThat(in.readAllBytes()).hasSize(SIZE / 2);
      assertThat(in.getNextEntry()).isNull();
    }
    // 12 + 12 + 48 MiB is over the 64 MiB cap: refused with a problem before a byte of zip goes out, nothing read.
    HomeSandboxFixture.put(U, "out/c.bin", new byte[2 * SIZE]);
    HomeSandboxFixture.SEEN.clear();
    Terminal.as(U).contentType("application/json").body(Map.of("paths", List.of("out"))).post("/files/archive").then()
        .statusCode(413).contentType("application/problem+json");
    assertThat(chunksAsked()).isZero();
  }

  /** Bytes deflate cannot shrink, so the zip is as large as its files. */
  private static byte[] noise(int size) {
    byte[] data = new byte[size];
    new Random(size).nextBytes(data);
    return data;
  }

  private static long chunksAsked() {
    return HomeSandboxFixture.seen(SandboxSubjects.FILES_READ_BYTES, ReadBytes.class).size();
  }

  private static String headers(InputStream in) throws Exception {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        break;
      }
      head.append((char) c);
    }
    return head.toString();
  }
}
