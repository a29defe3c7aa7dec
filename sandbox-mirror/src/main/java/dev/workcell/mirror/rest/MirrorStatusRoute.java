package dev.workcell.mirror.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.mirror.service.MirrorLifecycle;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;

/** {@code GET /mirror/status} on the mirror's loopback port: what {@code bin/workcell mirror} shows. */
@ApplicationScoped
public class MirrorStatusRoute {

  private final MirrorLifecycle lifecycle;
  private final ObjectMapper json;

  public MirrorStatusRoute(MirrorLifecycle lifecycle, ObjectMapper json) {
    this.lifecycle = lifecycle;
    this.json = json;
  }

  void install(@Observes Router router) {
    router.get("/mirror/status").handler(context -> {
      try {
        Object body = lifecycle.status().<Object>map(s -> s).orElse(Map.of("enabled", false));
        context.response().putHeader("Content-Type", "application/json").end(json.writeValueAsString(body));
      } catch (Exception e) {
        context.fail(e);
      }
    });
  }
}
