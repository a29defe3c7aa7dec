package dev.workcell.contracts.task;

/** Preview state: sandbox-service writes it, the owner and preview-proxy read it. */
public final class PreviewApi {

  private PreviewApi() {}

  /** {@code state}: starting (bumps the generation), ready or stopped. */
  public record SetPreview(String taskId, String state, Integer hostPort, String command) {}
}
