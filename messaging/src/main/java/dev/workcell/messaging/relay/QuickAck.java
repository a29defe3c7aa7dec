package dev.workcell.messaging.relay;

import io.netty.channel.Channel;
import io.netty.channel.socket.nio.NioChannelOption;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.impl.ConnectionBase;
import java.net.SocketOption;
import jdk.net.ExtendedSocketOptions;
import org.jboss.logging.Logger;

/**
 * Acknowledges what a kept-alive upstream connection has received at once. Why: a target that
 * writes its response head and body in two small writes without TCP_NODELAY (python's http.server,
 * werkzeug) holds the body back (Nagle) until the head is acknowledged, and on a kept-alive
 * request/response connection Linux delays that acknowledgement up to 40 ms. A browser talking to
 * the target directly does not wait; the relay must not either. TCP_QUICKACK is not sticky (the
 * kernel drops back to delayed ACKs after the next request), so it is set again for every response.
 */
final class QuickAck {

  private static final Logger LOG = Logger.getLogger(QuickAck.class);
  private static final SocketOption<Boolean> OPTION = supported();

  private QuickAck() {}

  static void now(HttpConnection connection) {
    if (OPTION == null || !(connection instanceof ConnectionBase base)) {
      return;
    }
    Channel channel = base.channel();
    try {
      channel.config().setOption(NioChannelOption.of(OPTION), true);
    } catch (RuntimeException e) { // another transport, or a closed socket: the relay works, only slower
      LOG.debugf("no TCP_QUICKACK on %s: %s", channel, e);
    }
  }

  private static SocketOption<Boolean> supported() {
    try {
      return java.nio.channels.SocketChannel.open().supportedOptions().contains(ExtendedSocketOptions.TCP_QUICKACK)
          ? ExtendedSocketOptions.TCP_QUICKACK : null;
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }
}
