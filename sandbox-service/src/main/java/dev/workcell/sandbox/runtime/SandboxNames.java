package dev.workcell.sandbox.runtime;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.config.SandboxSettings;
import java.util.regex.Pattern;

/** Runtime resource names, derived from the task id only (never taken from a request as a name). */
public final class SandboxNames {

  /** The instance whose homes have plain names; declared with the setting it is the default of. */
  public static final String DEFAULT_INSTANCE = SandboxSettings.DEFAULT_INSTANCE;

  private static final Pattern TASK_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

  private SandboxNames() {}

  public static String container(String taskId) {
    return "workcell-task-" + requireTaskId(taskId);
  }

  public static String volume(String taskId) {
    return "workcell-ws-" + requireTaskId(taskId);
  }

  /** Task ids become part of Docker names and NATS tokens: letters, digits, '-' and '_' only. */
  public static String requireTaskId(String taskId) {
    if (taskId == null || !TASK_ID.matcher(taskId).matches()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "taskId must be 1..64 letters, digits, '-' or '_'");
    }
    return taskId;
  }
}
