package dev.workcell.gateway.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The smallest HTTP/1.1 client: one kept-alive connection, a GET written and its answer read on the
 * calling thread (no selector or executor threads), so a timing is the server's cost plus one
 * loopback round trip, as with wrk or h2load. Only what the bench needs: Content-Length bodies.
 */
final class PlainHttpClient implements AutoCloseable {

  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private final String host;

  PlainHttpClient(int port) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress("127.0.0.1", port));
    out = socket.getOutputStream();
    in = new java.io.BufferedInputStream(socket.getInputStream(), 64 * 1024);
    host = "127.0.0.1:" + port;
  }

  record Answer(int status, String body) {}

  Answer get(String path, String bearer) throws IOException {
    StringBuilder request = new StringBuilder(256).append("GET ").append(path).append(" HTTP/1.1\r\nHost: ").append(host)
        .append("\r\nAccept: application/json\r\n");
    if (bearer != null) {
      request.append("Authorization: Bearer ").append(bearer).append("\r\n");
    }
    out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String status = line();
    int code = Integer.parseInt(status.substring(9, 12));
    int length = -1;
    for (String header = line(); !header.isEmpty(); header = line()) {
      int colon = header.indexOf(':');
      if (colon > 0 && header.substring(0, colon).equalsIgnoreCase("content-length")) {
        length = Integer.parseInt(header.substring(colon + 1).trim());
      }
    }
    if (length < 0) {
      throw new IOException("answer without Content-Length to GET " + path);
    }
    byte[] body = in.readNBytes(length);
    if (body.length != length) {
      throw new IOException("connection closed inside the body of GET " + path);
    }
    return new Answer(code, new String(body, StandardCharsets.UTF_8));
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(128);
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
