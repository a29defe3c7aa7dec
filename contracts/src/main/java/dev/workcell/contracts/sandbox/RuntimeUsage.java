package dev.workcell.contracts.sandbox;

/**
 * Runtime availability, caps and current use of Work task sandboxes (Open Terminal homes are a
 * pool apart and not counted here). {@code waiting} runs wait in line for a slot; when it reaches
 * {@code maxWaiting} a new run cannot be queued and is refused at the door.
 */
public record RuntimeUsage(String backend, boolean available, String unavailableReason, int globalCap, int globalActive,
    int perUserCap, int userActive, int waiting, int maxWaiting, long releaseGraceMs, long idleTimeoutMs) {

  /** Whether a run started now could be queued (it may still wait for a slot). */
  public boolean runCanQueue() {
    return available && waiting < maxWaiting;
  }
}
