package dev.workcell.sandbox.lifecycle;

import dev.workcell.sandbox.admission.RuntimeAdmission;
import dev.workcell.sandbox.celld.CelldConnection;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxSpec;

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

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      admission.end(key.id());
    }
  }
}
