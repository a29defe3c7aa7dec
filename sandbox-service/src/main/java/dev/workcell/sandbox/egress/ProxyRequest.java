package dev.workcell.sandbox.egress;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The head of one request to the egress proxy: {@code CONNECT host:port} (a tunnel, for TLS) or a
 * plain-HTTP request in absolute form ({@code GET http://host[:port]/path HTTP/1.1}). For the latter
 * the head sent on is rewritten: origin-form target, {@code Host} from the URI (so a request cannot
 * name one host and ask another behind it), no {@code Proxy-*} headers.
 *
 * @param forwardedHead what to send the destination first; empty for a tunnel
 */
record ProxyRequest(boolean tunnel, String host, int port, byte[] forwardedHead) {

  /** A head the proxy will not serve; {@code status} is the HTTP status to answer with. */
  static final class Rejected extends Exception {
    final int status;

    Rejected(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }
  }

  /** Parses a head (request line and headers, CRLF CRLF included) read as ISO-8859-1. */
  static ProxyRequest parse(byte[] head) throws Rejected {
    String text = new String(head, StandardCharsets.ISO_8859_1);
    String[] lines = text.split("\r\n", -1);
    String[] requestLine = lines[0].split(" ", -1);
    if (requestLine.length != 3 || !requestLine[2].matches("HTTP/1\\.[01]") || !requestLine[0].matches("[A-Z]{1,20}")) {
      throw new Rejected(400, "not an HTTP/1.x request line");
    }
    String method = requestLine[0];
    String target = requestLine[1];
    if (method.equals("CONNECT")) {
      int colon = target.lastIndexOf(':');
      if (colon <= 0 || target.startsWith("[")) {
        throw new Rejected(400, "CONNECT needs host:port (names only)");
      }
      return new ProxyRequest(true, target.substring(0, colon), port(target.substring(colon + 1)), new byte[0]);
    }
    String lower = target.toLowerCase(Locale.ROOT);
    if (lower.startsWith("https://")) {
      throw new Rejected(400, "https goes through CONNECT");
    }
    if (!lower.startsWith("http://")) {
      throw new Rejected(400, "only proxy requests: CONNECT host:port or an absolute http:// URL");
    }
    URI uri;
    try {
      uri = new URI(target);
    } catch (URISyntaxException e) {
      throw new Rejected(400, "the request URL does not parse");
    }
    if (uri.getHost() == null || uri.getRawUserInfo() != null || uri.getHost().startsWith("[")) {
      throw new Rejected(400, "the request URL needs a host name and no user info");
    }
    int port = uri.getPort() == -1 ? 80 : uri.getPort();
    if (port < 1 || port > 65_535) {
      throw new Rejected(400, "bad port");
    }
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      path += "?" + uri.getRawQuery();
    }
    StringBuilder out = new StringBuilder(head.length + 32);
    out.append(method).append(' ').append(path).append(' ').append(requestLine[2]).append("\r\n");
    out.append("Host: ").append(uri.getHost()).append(uri.getPort() == -1 ? "" : ":" + port).append("\r\n");
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      if (line.isEmpty()) {
        continue;
      }
      String name = line.contains(":") ? line.substring(0, line.indexOf(':')).strip().toLowerCase(Locale.ROOT) : "";
      if (name.isEmpty() || line.startsWith(" ") || line.startsWith("\t")) {
        throw new Rejected(400, "malformed header line");
      }
      if (name.equals("host") || name.startsWith("proxy-")) {
        continue;
      }
      out.append(line).append("\r\n");
    }
    out.append("\r\n");
    return new ProxyRequest(false, uri.getHost(), port, out.toString().getBytes(StandardCharsets.ISO_8859_1));
  }

  private static int port(String value) throws Rejected {
    if (!value.matches("[0-9]{1,5}")) {
      throw new Rejected(400, "bad port");
    }
    int port = Integer.parseInt(value);
    if (port < 1 || port > 65_535) {
      throw new Rejected(400, "bad port");
    }
    return port;
  }
}
