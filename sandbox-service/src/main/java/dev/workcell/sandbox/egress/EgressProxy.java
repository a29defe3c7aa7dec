package dev.workcell.sandbox.egress;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.EgressAllowlist;
import dev.workcell.sandbox.config.SandboxSettings;
import io.quarkus.logging.Log;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The egress proxy of allowlisted sandboxes (decision 0012): HTTP CONNECT tunnels (TLS) and
 * absolute-URL plain HTTP, listening only on the egress network's gateway address, the one thing
 * that network reaches (the launcher's firewall opens just this port on {@code wcsbe-*}). Each
 * connection is judged before anything is forwarded: which sandbox (source address), its current
 * allowlist, then a public address the proxy resolved itself. One virtual thread per direction; the
 * lookups block, which is cheap there. Built at start, so a setting it refuses stops sandbox-service
 * there and then rather than at the first allowlisted sandbox.
 */
@Startup
@ApplicationScoped
public class EgressProxy {

  private static final int HEAD_MAX_BYTES = 16 * 1024;
  private static final int HEAD_TIMEOUT_MS = 30_000;
  private static final int CONNECT_TIMEOUT_MS = 10_000;
  /**
   * Connections one sandbox may hold open at once, and all together: each costs sandbox-service a
   * descriptor per side, so a sandbox that opens thousands must not run the service out of them.
   */
  static final int MAX_PER_SANDBOX = 64;
  static final int MAX_TOTAL = 2_048;

  private final int port;
  private final EgressPolicies policies;
  private final Destinations destinations;
  private final Map<String, ServerSocket> listeners = new ConcurrentHashMap<>();
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, Integer> open = new ConcurrentHashMap<>();
  private final Map<String, Long> refusalLogged = new ConcurrentHashMap<>();
  private int openTotal;

  public EgressProxy(SandboxSettings settings, EgressPolicies policies) {
    this.port = settings.egress().proxyPort();
    this.policies = policies;
    boolean allowPrivate = settings.egress().allowPrivateDestinations();
    if (allowPrivate && LaunchMode.current() != LaunchMode.TEST) {
      throw new IllegalStateException("workcell.sandbox.egress.allow-private-destinations is for tests only: with it the "
          + "egress proxy would reach the host and private networks; sandbox-service refuses to start");
    }
    if (allowPrivate) {
      Log.warn("workcell.sandbox.egress.allow-private-destinations=true (tests only): the egress proxy connects to private addresses");
    }
    this.destinations = new Destinations(settings.egress().resolveOverride().map(Destinations::overrides).orElse(Map.of()),
        allowPrivate);
    if (port < 1 || port > 65_535) {
      throw new IllegalStateException("workcell.sandbox.egress.proxy-port must be 1..65535, not " + port);
    }
    settings.home().egressAllowlist().ifPresent(list -> {
      try {
        EgressAllowlist.parse(list);
      } catch (WorkcellException e) {
        throw new IllegalStateException("workcell.sandbox.home.egress-allowlist: " + e.getMessage(), e);
      }
    });
  }

  public int port() {
    return port;
  }

  /** Listens on {@code address} (an egress network's gateway) unless it already does. */
  public synchronized void listenOn(String address) {
    if (listeners.containsKey(address)) {
      return;
    }
    ServerSocket server;
    try {
      server = new ServerSocket();
      server.setReuseAddress(true);
      server.bind(new InetSocketAddress(InetAddress.getByName(address), port), 256);
    } catch (IOException e) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "the egress proxy cannot listen on " + address + ":" + port
          + ": " + e.getMessage(), e);
    }
    listeners.put(address, server);
    threads.execute(() -> accept(server));
    Log.infof("egress proxy listening on %s:%d", address, port);
  }

  private void accept(ServerSocket server) {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        String source = client.getInetAddress().getHostAddress();
        if (!take(source)) {
          refuseOverLimit(client, source);
          continue;
        }
        threads.execute(() -> {
          try {
            serve(client);
          } finally {
            release(source);
          }
        });
      } catch (IOException e) {
        if (!server.isClosed()) {
          Log.warnf("egress proxy: accept failed: %s", e.getMessage());
        }
      }
    }
  }

  private synchronized boolean take(String source) {
    int mine = open.getOrDefault(source, 0);
    if (mine >= MAX_PER_SANDBOX || openTotal >= MAX_TOTAL) {
      return false;
    }
    open.put(source, mine + 1);
    openTotal++;
    return true;
  }

  private synchronized void release(String source) {
    open.computeIfPresent(source, (key, count) -> count <= 1 ? null : count - 1);
    openTotal--;
  }

  /** Closed at once; logged at most every 10 s per source, so a flood does not flood the log too. */
  private void refuseOverLimit(Socket client, String source) {
    long now = System.nanoTime();
    Long last = refusalLogged.get(source);
    if (last == null || now - last > 10_000_000_000L) {
      refusalLogged.put(source, now);
      Log.infof("egress refused source=%s reason=\"%d connections open (at most %d per sandbox, %d in all)\"", source,
          open.getOrDefault(source, 0), MAX_PER_SANDBOX, MAX_TOTAL);
    }
    try {
      client.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  private void serve(Socket client) {
    String source = client.getInetAddress().getHostAddress();
    try (client) {
      client.setSoTimeout(HEAD_TIMEOUT_MS);
      InputStream in = new BufferedInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      ProxyRequest request;
      try {
        request = ProxyRequest.parse(readHead(in));
      } catch (ProxyRequest.Rejected e) {
        Log.infof("egress refused source=%s status=%d reason=\"%s\"", source, e.status, e.getMessage());
        respond(out, e.status, e.getMessage());
        return;
      }
      EgressPolicies.Verdict verdict = policies.decide(source, request.host());
      if (!verdict.allowed()) {
        deny(out, source, verdict.sandbox(), request, verdict.reason());
        return;
      }
      InetAddress address;
      try {
        address = destinations.resolve(request.host());
      } catch (Destinations.Refused e) {
        deny(out, source, verdict.sandbox(), request, e.getMessage());
        return;
      }
      Socket upstream = new Socket();
      try {
        upstream.connect(new InetSocketAddress(address, request.port()), CONNECT_TIMEOUT_MS);
      } catch (IOException e) {
        upstream.close();
        Log.infof("egress failed sandbox=%s host=%s port=%d address=%s reason=\"%s\"", verdict.sandbox(), request.host(),
            request.port(), address.getHostAddress(), e.getMessage());
        respond(out, 502, "could not connect to " + request.host() + ":" + request.port());
        return;
      }
      Log.infof("egress allowed sandbox=%s host=%s port=%d address=%s mode=%s why=\"%s\"", verdict.sandbox(), request.host(),
          request.port(), address.getHostAddress(), request.tunnel() ? "connect" : "http", verdict.reason());
      try (upstream) {
        client.setSoTimeout(0);
        if (request.tunnel()) {
          out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
          out.flush();
        } else {
          upstream.getOutputStream().write(request.forwardedHead());
        }
        relay(client, in, upstream);
      }
    } catch (IOException e) {
      Log.debugf("egress connection from %s ended: %s", source, e.getMessage());
    } catch (RuntimeException e) {
      Log.warnf(e, "egress connection from %s failed", source);
    }
  }

  /** Both directions until each side is done; a half-close is passed on. */
  private void relay(Socket client, InputStream fromClient, Socket upstream) throws IOException {
    var back = threads.submit(() -> {
      copy(upstream.getInputStream(), client.getOutputStream());
      shutdownOutput(client);
      return null;
    });
    copy(fromClient, upstream.getOutputStream());
    shutdownOutput(upstream);
    try {
      back.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      // the other direction ended with an error: both sockets close below
    }
  }

  private static void copy(InputStream in, OutputStream out) {
    byte[] buffer = new byte[16 * 1024];
    try {
      int n;
      while ((n = in.read(buffer)) != -1) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // a reset or close on either side ends this direction
    }
  }

  private static void shutdownOutput(Socket socket) {
    try {
      socket.shutdownOutput();
    } catch (IOException | UnsupportedOperationException e) {
      // already closed
    }
  }

  /** The request line and headers, through the empty line; what follows stays in {@code in}. */
  private static byte[] readHead(InputStream in) throws IOException, ProxyRequest.Rejected {
    ByteArrayOutputStream head = new ByteArrayOutputStream(512);
    int state = 0;
    while (state < 4) {
      int b = in.read();
      if (b == -1) {
        throw new ProxyRequest.Rejected(400, "the request ended inside its head");
      }
      head.write(b);
      if (head.size() > HEAD_MAX_BYTES) {
        throw new ProxyRequest.Rejected(431, "request head over " + HEAD_MAX_BYTES + " bytes");
      }
      state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1
          : b == '\r' ? 1 : 0;
    }
    return head.toByteArray();
  }

  private static void deny(OutputStream out, String source, String sandbox, ProxyRequest request, String reason) throws IOException {
    Log.infof("egress denied sandbox=%s source=%s host=%s port=%d reason=\"%s\"", sandbox, source, request.host(), request.port(),
        reason);
    respond(out, 403, "workcell egress: " + request.host() + " refused: " + reason);
  }

  private static void respond(OutputStream out, int status, String message) throws IOException {
    String reason = switch (status) {
      case 400 -> "Bad Request";
      case 403 -> "Forbidden";
      case 431 -> "Request Header Fields Too Large";
      default -> "Bad Gateway";
    };
    byte[] body = (message + "\n").getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
        + body.length + "\r\nConnection: close\r\n\r\n";
    try {
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
    } catch (SocketException gone) {
      // the client left
    }
  }

  @PreDestroy
  void close() {
    listeners.values().forEach(server -> {
      try {
        server.close();
      } catch (IOException e) {
        // closing anyway
      }
    });
    threads.shutdownNow();
  }
}
