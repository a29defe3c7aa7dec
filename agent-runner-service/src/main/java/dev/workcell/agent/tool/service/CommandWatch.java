package dev.workcell.agent.tool.service;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/** Told when a run_command is sent to the sandbox and when its answer came, so a cancel can stop it. */
public interface CommandWatch {

  void started(SandboxRef sandbox, String execId);

  void finished(String execId);

  CommandWatch NONE = new CommandWatch() {
    @Override
    public void started(SandboxRef sandbox, String execId) {}

    @Override
    public void finished(String execId) {}
  };
}
