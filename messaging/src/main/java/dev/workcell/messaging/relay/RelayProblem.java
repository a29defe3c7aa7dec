package dev.workcell.messaging.relay;

import dev.workcell.contracts.error.ErrorCode;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

/** An RFC 9457 problem a relay answers itself (refused link, unreachable target), with a stable code. */
public final class RelayProblem {

  private RelayProblem() {}

  public static void send(HttpServerRequest request, ErrorCode error, String detail) {
    int status = error.httpStatus();
    var response = request.response();
    if (response.headWritten() || response.ended() || response.closed()) {
      request.connection().close();
      return;
    }
    String body = new JsonObject().put("type", "about:blank").put("title", error.title()).put("status", status)
        .put("detail", detail).put("code", error.code()).put("instance", request.path()).encode();
    response.setStatusCode(status).putHeader("Content-Type", "application/problem+json")
        .putHeader("Cache-Control", "no-store").end(body);
    // An unread request body would follow on this connection.
    request.resume();
  }
}
