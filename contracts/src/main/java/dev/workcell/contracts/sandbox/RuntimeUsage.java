package dev.workcell.contracts.sandbox;

import java.util.List;

/**
 * Runtime availability, caps and current use of Work task sandboxes (Open Terminal homes are a
 * pool apart and not counted here). {@code waiting} runs wait in line for a slot; when it reaches
 * {@code maxWaiting} a new run cannot be queued and is refused at the door. {@code memory} is the
 * memory ledger over every running sandbox, homes included (null from an older sandbox-service).
 * {@code hostFolders}: whether the asking account may give a new task a host folder as its workspace
 * (enabled, Docker backend, an admin; decision 0023); null from an older sandbox-service.
 */
public record RuntimeUsage(String backend, boolean available, String unavailableReason, int globalCap, int globalActive,
    int perUserCap, int userActive, int waiting, int maxWaiting, long releaseGraceMs, long idleTimeoutMs, Memory memory,
    Boolean hostFolders) {

  public RuntimeUsage(String backend, boolean available, String unavailableReason, int globalCap, int globalActive,
      int perUserCap, int userActive, int waiting, int maxWaiting, long releaseGraceMs, long idleTimeoutMs, Memory memory) {
    this(backend, available, unavailableReason, globalCap, globalActive, perUserCap, userActive, waiting, maxWaiting,
        releaseGraceMs, idleTimeoutMs, memory, null);
  }

  public RuntimeUsage(String backend, boolean available, String unavailableReason, int globalCap, int globalActive,
      int perUserCap, int userActive, int waiting, int maxWaiting, long releaseGraceMs, long idleTimeoutMs) {
    this(backend, available, unavailableReason, globalCap, globalActive, perUserCap, userActive, waiting, maxWaiting,
        releaseGraceMs, idleTimeoutMs, null, null);
  }

  /** Whether a run started now could be queued (it may still wait for a slot). */
  public boolean runCanQueue() {
    return available && waiting < maxWaiting;
  }

  /**
   * The sum of the memory limits of running sandboxes ({@code reservedBytes}, sandboxes being started
   * included) against the instance's budget; {@code idleBytes} of it could be freed by stopping idle
   * sandboxes. {@code mine}: the asking owner's own running task sandboxes (0 when the budget is not
   * known yet, because the engine has not answered).
   */
  public record Memory(long budgetBytes, long reservedBytes, long idleBytes, int sandboxes, List<SandboxMemory> mine) {

    public Memory {
      mine = mine == null ? List.of() : List.copyOf(mine);
    }
  }

  /** One running sandbox in the ledger: its memory limit and whether it is idle (may be stopped to make room). */
  public record SandboxMemory(String taskId, long memoryBytes, boolean idle) {}
}
