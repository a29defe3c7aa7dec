package dev.workcell.sandbox.admission.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.HoldRuntime;
import dev.workcell.contracts.sandbox.ReleaseRuntime;
import dev.workcell.contracts.sandbox.RuntimeHold;
import dev.workcell.contracts.sandbox.RuntimeUsage;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.hostfolder.service.HostFolderGuard;
import dev.workcell.sandbox.runtime.SandboxKey;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Named holds on Work task slots (a run's, for its whole duration) and the caps-and-use answer.
 * A hold only reserves the slot: the sandbox still starts on the first operation that needs it.
 */
@ApplicationScoped
public class RuntimeHolds {

  /** The only backend there is today; the Kubernetes driver will name itself. */
  static final String BACKEND = "docker";
  private static final int HOLDER_MAX_CHARS = 100;
  private static final long MAX_TTL_MS = Duration.ofMinutes(10).toMillis();
  private static final long MAX_WAIT_MS = Duration.ofMinutes(10).toMillis();

  private final RuntimeAdmission admission;
  private final SafeMode safeMode;
  private final long releaseGraceMs;
  private final HostFolderGuard hostFolders;
  private final long idleTimeoutMs;

  public RuntimeHolds(RuntimeAdmission admission, SafeMode safeMode, SandboxSettings settings, HostFolderGuard hostFolders) {
    this.admission = admission;
    this.hostFolders = hostFolders;
    this.safeMode = safeMode;
    this.releaseGraceMs = settings.releaseGrace().toMillis();
    this.idleTimeoutMs = settings.runtimeIdleTimeoutMs();
  }

  /** Takes or renews the hold; answers when held, or fails {@code too_many_runtimes} after the wait. */
  public Uni<RuntimeHold> hold(HoldRuntime request) {
    safeMode.requireOff();
    SandboxKey key = taskKey(request.sandbox());
    String holder = holder(request.holder());
    if (request.ttlMs() < 1_000 || request.ttlMs() > MAX_TTL_MS || request.waitMs() < 0 || request.waitMs() > MAX_WAIT_MS) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "ttlMs must be 1000.." + MAX_TTL_MS + " and waitMs 0.." + MAX_WAIT_MS);
    }
    long asked = System.nanoTime();
    return Uni.createFrom().completionStage(admission.hold(key.id(), key.admissionOwner(), holder, request.ttlMs(), request.waitMs()))
        .map(held -> new RuntimeHold(holder, true, Duration.ofNanos(System.nanoTime() - asked).toMillis()));
  }

  public RuntimeHold release(ReleaseRuntime request) {
    SandboxKey key = taskKey(request.sandbox());
    String holder = holder(request.holder());
    admission.releaseHold(key.id(), holder);
    return new RuntimeHold(holder, false, 0);
  }

  /** Caps and use for {@code ownerId}; whether host folders are offered is {@code actor}'s (admins only). */
  public RuntimeUsage usage(Actor actor, String ownerId) {
    RuntimeAdmission.Usage use = admission.usage(ownerId);
    return new RuntimeUsage(BACKEND, !safeMode.active(), safeMode.reason(), use.globalCap(), use.globalActive(), use.perUserCap(),
        use.userActive(), use.waiting(), use.maxWaiting(), releaseGraceMs, idleTimeoutMs, admission.memory(ownerId),
        hostFolders.offeredTo(actor));
  }

  private static SandboxKey taskKey(SandboxRef ref) {
    if (ref == null || ref.isHome()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "a runtime hold names a task's sandbox (homes have their own pool)");
    }
    return SandboxKey.of(ref);
  }

  private static String holder(String holder) {
    if (holder == null || holder.isBlank() || holder.length() > HOLDER_MAX_CHARS || holder.chars().anyMatch(Character::isISOControl)
        || RuntimeAdmission.PREVIEW.equals(holder)) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "holder must be 1.." + HOLDER_MAX_CHARS + " printable characters");
    }
    return holder;
  }
}
