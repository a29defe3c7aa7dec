package dev.workcell.sandbox.lifecycle.service;

import dev.workcell.sandbox.celld.client.CelldConnection;
import dev.workcell.sandbox.runtime.SandboxInstance;
import dev.workcell.sandbox.runtime.SandboxSpec;

/** A verified, running sandbox with its celld connection: what operations use without asking Docker. */
record ActiveSandbox(SandboxInstance instance, SandboxSpec spec, CelldConnection celld) {

  String ownerId() {
    return instance.ownerId();
  }
}
