package dev.workcell.contracts.task;

/** task-service subjects about tasks (request/reply, queue group "task"). */
public final class TaskSubjects {

  /**
   * Which of the given task ids still exist ({@link KnownTasks} → {@link KnownTasksReply}).
   * sandbox-service asks at start to tell its sandboxes from orphans; service actors only.
   */
  public static final String KNOWN_TASKS = "workcell.task.tasks.known";

  private TaskSubjects() {}

  public record KnownTasks(java.util.List<String> taskIds) {}

  public record KnownTasksReply(java.util.List<String> known) {}
}
