package dev.workcell.contracts.task;

import java.util.List;

/** Requests and replies of the owner-facing task subjects (the gateway calls them for a user). */
public final class TaskApi {

  private TaskApi() {}

  /** Names one task of the acting account. */
  public record TaskRef(String taskId) {}

  /**
   * Creates a task and its first run. {@code title} may be null (derived from the message);
   * {@code policyId} may be null (deployment defaults, network on). {@code workspaceFolder}: a host
   * folder to bind as {@code /workspace} (admins only, decision 0023); null: a volume of its own.
   */
  public record CreateTask(String title, String message, ProviderKind providerKind, String providerId, String model, String policyId,
      String workspaceFolder) {

    /** A task with a workspace volume of its own. */
    public CreateTask(String title, String message, ProviderKind providerKind, String providerId, String model, String policyId) {
      this(title, message, providerKind, providerId, model, policyId, null);
    }
  }

  public record TaskCreated(TaskView task, RunView run, MessageView message) {}

  /** Lists the acting account's own tasks (admins too; {@code admin.tasks.list} lists all). */
  public record ListTasks() {}

  public record TaskList(List<TaskView> tasks) {}

  /** The task, its latest run and the newest page of messages. */
  public record TaskDetail(TaskView task, RunView latestRun, MessagePage messages, int pendingApprovals) {}

  /**
   * Renames or re-routes a task; null fields stay as they are. A route change applies to later runs:
   * each run keeps the route it started with.
   */
  public record UpdateTask(String taskId, String title, ProviderKind providerKind, String providerId, String model) {}

  public record TaskDeleted(String taskId) {}

  /** Starts a follow-up run on the same conversation and workspace. */
  public record StartRun(String taskId, String message) {}

  public record RunStarted(TaskView task, RunView run, MessageView message) {}

  /** A message to the active run; it reaches the model at the run's next round. */
  public record PostMessage(String taskId, String content) {}

  /** Names one run (any run, not only the latest) of a task of the acting account. */
  public record GetRun(String taskId, String runId) {}

  /** One run with its task as they are now: what a live stream's first frame shows. */
  public record RunDetail(TaskView task, RunView run) {}

  /** Cancels the active run (the task then shows Needs input); no active run is not an error. */
  public record RunCancelled(TaskView task, RunView run) {}

  /**
   * Messages older than {@code beforeId} (null: the newest), oldest first. {@code limit} 0 means 50;
   * a page never exceeds 200 messages or 1,000,000 bytes.
   */
  public record PageMessages(String taskId, Long beforeId, int limit) {}

  /** {@code nextBeforeId} is the cursor of the next older page, null when there is none. */
  public record MessagePage(List<MessageView> messages, Long nextBeforeId, long bytes) {}

  /** Tool activity of a task (one run, or all when {@code runId} is null), oldest first. */
  public record ListToolActivity(String taskId, String runId, Long beforeId, int limit) {}

  public record ToolActivityPage(List<ToolActivityView> activity, Long nextBeforeId) {}
}
