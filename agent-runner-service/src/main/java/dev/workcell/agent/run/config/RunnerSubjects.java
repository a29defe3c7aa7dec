package dev.workcell.agent.run.config;

import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.contracts.task.TaskSubjects;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The subjects the runner calls and the queue it takes runs from. Defaults are the contract; the
 * test profile points them at fixture subjects so a real task-service on the shared test NATS never
 * answers (or loses) a test's requests.
 */
@ConfigMapping(prefix = "workcell.agent.subjects")
public interface RunnerSubjects {

  /** JetStream stream holding run-start requests (a work queue). */
  @WithDefault("WORKCELL_RUN_REQUESTS")
  String runRequestStream();

  @WithDefault(Subjects.RUN_REQUESTS)
  String runRequests();

  /** Durable pull consumer every runner replica shares, so each request is taken once. */
  @WithDefault("agent-runner")
  String runRequestConsumer();

  @WithDefault(TaskSubjects.RUNNER_RUN)
  String runSpec();

  @WithDefault(TaskSubjects.RUNNER_TRANSITION)
  String transition();

  @WithDefault(TaskSubjects.RUNNER_USAGE)
  String usage();

  @WithDefault(TaskSubjects.RUNNER_CONTEXT)
  String context();

  @WithDefault(TaskSubjects.RUNNER_PENDING)
  String pending();

  @WithDefault(TaskSubjects.RUNNER_APPEND)
  String append();

  @WithDefault(TaskSubjects.RUNNER_TOOL)
  String toolActivity();

  @WithDefault(TaskSubjects.RUNNER_APPROVAL_REQUEST)
  String approvalRequest();

  @WithDefault(TaskSubjects.RUNNER_APPROVAL_GET)
  String approvalGet();

  @WithDefault(SandboxSubjects.FILES_LIST)
  String filesList();

  @WithDefault(SandboxSubjects.FILES_READ)
  String filesRead();

  @WithDefault(SandboxSubjects.FILES_WRITE)
  String filesWrite();

  @WithDefault(SandboxSubjects.FILES_DELETE)
  String filesDelete();

  @WithDefault(SandboxSubjects.FILES_MOVE)
  String filesMove();

  @WithDefault(SandboxSubjects.FILES_SEARCH)
  String filesSearch();

  @WithDefault(SandboxSubjects.EXEC)
  String exec();

  @WithDefault(SandboxSubjects.EXEC_CANCEL)
  String execCancel();

  @WithDefault(TaskSubjects.RUNNER_HEARTBEAT)
  String heartbeat();

  /** Prefix of the per-run control subjects task-service pushes cancel / message / approval on. */
  @WithDefault(RunControlApi.CONTROL_PREFIX)
  String runControlPrefix();

  @WithDefault(SandboxSubjects.PREVIEW_START)
  String previewStart();

  @WithDefault(SandboxSubjects.PREVIEW_STOP)
  String previewStop();

  @WithDefault(SandboxSubjects.LEASE_HOLD)
  String leaseHold();

  @WithDefault(SandboxSubjects.LEASE_RELEASE)
  String leaseRelease();
}
