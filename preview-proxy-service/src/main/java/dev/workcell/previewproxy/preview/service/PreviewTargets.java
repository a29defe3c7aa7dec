package dev.workcell.previewproxy.preview.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.preview.PreviewToken;
import dev.workcell.contracts.sandbox.PreviewState;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.PreviewView;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.previewproxy.preview.config.PreviewProxySettings;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a verified link's requests go, decided by the server alone: task-service must hold the
 * preview as ready with the link's generation (a stop or restart changes that), and sandbox-service
 * must find it running; the address is the one sandbox-service's driver published (Docker: the
 * loopback port). The sandbox-service check also counts as the sandbox's activity for the idle stop.
 * Each answer is reused for {@code checkTtl} (1 s): revocation within a second, one check per burst.
 */
@ApplicationScoped
public class PreviewTargets {

  /** A preview's address on this host. */
  public record Target(String host, int port) {}

  /** A running preview: the generation task-service recorded and where it listens. */
  public record Live(long generation, Target target) {}

  private record Cached(long expiresNanos, CompletableFuture<Target> target) {}

  private static final Actor SELF = Actor.service(ServiceName.PREVIEW_PROXY);
  private static final int MAX_CACHED = 10_000;

  private final NatsRequester requester;
  private final PreviewProxySettings settings;
  private final Map<PreviewToken, Cached> cache = new ConcurrentHashMap<>();

  public PreviewTargets(NatsRequester requester, PreviewProxySettings settings) {
    this.requester = requester;
    this.settings = settings;
  }

  /** Fails with {@code preview_revoked} when the link's preview no longer runs. */
  public CompletionStage<Target> of(PreviewToken link) {
    long now = System.nanoTime();
    PreviewToken key = new PreviewToken(link.taskId(), link.ownerId(), link.generation(), 0);
    Cached cached = cache.get(key);
    if (cached != null && now - cached.expiresNanos() < 0) {
      return cached.target();
    }
    if (cache.size() >= MAX_CACHED) {
      cache.values().removeIf(c -> now - c.expiresNanos() >= 0);
    }
    CompletableFuture<Target> target = ask(link).subscribeAsCompletionStage();
    cache.put(key, new Cached(now + settings.checkTtl().toNanos(), target));
    target.whenComplete((t, e) -> {
      if (e != null) { // a failed check is not reused
        cache.remove(key);
      }
    });
    return target;
  }

  private Uni<Target> ask(PreviewToken link) {
    return current(link.taskId(), link.ownerId()).map(live -> {
      if (live.generation() != link.generation()) {
        throw new WorkcellException(ErrorCode.PREVIEW_REVOKED, "the preview this link was made for was stopped or restarted");
      }
      return live.target();
    });
  }

  /**
   * The running preview of the owner's task, asked afresh (never cached): task-service must hold it
   * ready and sandbox-service must find it running for that owner; else {@code preview_revoked}.
   */
  public Uni<Live> current(String taskId, String ownerId) {
    Uni<PreviewView> recorded = requester.request(TaskSubjects.PREVIEW_GET, new TaskRef(taskId), SELF, settings.checkDeadline());
    Uni<PreviewState> running = requester.request(SandboxSubjects.PREVIEW_STATUS, new SandboxRef(taskId, ownerId), SELF,
        settings.checkDeadline());
    return Uni.combine().all().unis(recorded.onFailure().transform(PreviewTargets::revokedIfGone),
        running.onFailure().transform(PreviewTargets::revokedIfGone)).asTuple().map(both -> {
      PreviewView view = both.getItem1();
      PreviewState state = both.getItem2();
      if (!"ready".equals(view.state()) || !state.running() || state.hostPort() == null || state.hostAddress() == null) {
        throw new WorkcellException(ErrorCode.PREVIEW_REVOKED, "the preview is not running");
      }
      return new Live(view.generation(), new Target(state.hostAddress(), state.hostPort()));
    });
  }

  private static Throwable revokedIfGone(Throwable e) {
    if (e instanceof WorkcellException w && w.code() == ErrorCode.NOT_FOUND) {
      return new WorkcellException(ErrorCode.PREVIEW_REVOKED, "the task or its sandbox is gone");
    }
    return e;
  }
}
