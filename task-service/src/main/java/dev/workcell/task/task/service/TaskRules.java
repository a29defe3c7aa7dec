package dev.workcell.task.task.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Text;

/** Validation of what a task is made of: its title and its explicit provider route. */
public final class TaskRules {

  private static final int DERIVED_TITLE_CHARS = 80;

  private TaskRules() {}

  /** A checked route; {@code kind} is the wire name the task and run columns store. */
  public record Route(String kind, String providerId, String model) {}

  public static Route requireRoute(ProviderKind parsed, String providerId, String model) {
    if (parsed == null) {
      throw Failures.invalid("providerKind must be one of ollama, ollama_cloud, openai, anthropic, gemini");
    }
    if (providerId == null || providerId.isBlank()) {
      // A provider configured from the environment has its kind as its id (agent-runner's rule).
      providerId = parsed.wire();
    }
    if (providerId.length() > Limits.PROVIDER_ID_MAX_CHARS) {
      throw Failures.error(ErrorCode.PROVIDER_ID_TOO_LONG,
          "the provider id has " + providerId.length() + " characters; at most " + Limits.PROVIDER_ID_MAX_CHARS);
    }
    if (model == null || model.isBlank()) {
      throw Failures.invalid("model is required");
    }
    if (model.length() > Limits.MODEL_ID_MAX_CHARS || Text.utf8Length(model) > Limits.MODEL_ID_MAX_CHARS) {
      throw Failures.error(ErrorCode.MODEL_ID_TOO_LONG,
          "the model id exceeds " + Limits.MODEL_ID_MAX_CHARS + " characters or UTF-8 bytes");
    }
    return new Route(parsed.wire(), providerId, model);
  }

  public static String requireTitle(String title) {
    String trimmed = title == null ? "" : title.strip();
    if (trimmed.isEmpty()) {
      throw Failures.invalid("the title is empty");
    }
    if (trimmed.length() > Limits.TITLE_MAX_CHARS) {
      throw Failures.invalid("the title exceeds " + Limits.TITLE_MAX_CHARS + " characters");
    }
    return trimmed;
  }

  /** A title from the first line of the first message, when the caller gives none. */
  public static String deriveTitle(String message) {
    String line = message.strip().lines().findFirst().orElse("").strip();
    if (line.isEmpty()) {
      return "Untitled task";
    }
    Text.Bounded cut = Text.boundChars(line, DERIVED_TITLE_CHARS);
    return cut.truncated() ? line.substring(0, cut.text().indexOf('\n')) + "…" : line;
  }
}
