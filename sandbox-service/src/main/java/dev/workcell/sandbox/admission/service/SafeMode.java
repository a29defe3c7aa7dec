package dev.workcell.sandbox.admission.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Fail-closed until startup reconciliation has proven the runtime clean: while active, every
 * mutation answers {@code safe_mode} (503) and readiness is down.
 */
@ApplicationScoped
public class SafeMode {

  private volatile String reason = "startup reconciliation has not finished";

  public boolean active() {
    return reason != null;
  }

  /** Why safe mode is on, or null when it is off. */
  public String reason() {
    return reason;
  }

  public void enter(String why) {
    reason = why == null || why.isBlank() ? "reconciliation failed" : why;
  }

  public void clear() {
    reason = null;
  }

  public void requireOff() {
    String current = reason;
    if (current != null) {
      throw new WorkcellException(ErrorCode.SAFE_MODE, "sandbox-service is in safe mode until cleanup is proven: " + current);
    }
  }
}
