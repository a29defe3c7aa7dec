package dev.workcell.sandbox.lifecycle.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.sandbox.admission.service.RuntimeAdmission;
import dev.workcell.sandbox.celld.client.CelldConnection;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxSpec;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** One operation's use of a running sandbox; closing it records activity for the idle stop. */
public final class SandboxSession implements AutoCloseable {

  private final RuntimeAdmission admission;
  private final SandboxKey key;
  private final ActiveSandbox active;
  private boolean closed;

  SandboxSession(RuntimeAdmission admission, SandboxKey key, ActiveSandbox active) {
    this.admission = admission;
    this.key = key;
    this.active = active;
  }

  public SandboxKey key() {
    return key;
  }

  public CelldConnection celld() {
    return active.celld();
  }

  public SandboxInstance instance() {
    return active.instance();
  }

  public SandboxSpec spec() {
    return active.spec();
  }

  /**
   * Sends one request and ends this session with its reply, holding no thread while celld works:
   * the Uni completes on the connection's reader thread.
   */
  public Uni<JsonNode> call(CelldRequest request, Duration timeout) {
    CompletableFuture<JsonNode> reply;
    try {
      reply = celld().callAsync(request, timeout);
    } catch (RuntimeException e) {
      close();
      return Uni.createFrom().failure(e);
    }
    return Uni.createFrom().completionStage(reply).onTermination().invoke(this::close);
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      admission.end(key.id());
    }
  }
}
