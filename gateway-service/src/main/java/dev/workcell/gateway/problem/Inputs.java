package dev.workcell.gateway.problem;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.ProviderKind;
import java.nio.charset.StandardCharsets;

/**
 * Checks of request input made at the edge, so an obviously bad request never costs a NATS round
 * trip. The owning service checks again; these only fail fast with the same codes.
 */
public final class Inputs {

  private Inputs() {}

  public static <T> T body(T body) {
    if (body == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "a JSON body is required");
    }
    return body;
  }

  /** A task or run message: present, not blank, within 65,536 characters and UTF-8 bytes. */
  public static String message(String message) {
    if (message == null || message.isBlank()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "message is required");
    }
    if (message.length() > Limits.MESSAGE_MAX_CHARS || utf8(message) > Limits.MESSAGE_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.MESSAGE_TOO_LONG, null);
    }
    return message;
  }

  public static String model(String model, boolean required) {
    if (model == null || model.isBlank()) {
      if (required) {
        throw new WorkcellException(ErrorCode.INVALID_REQUEST, "model is required");
      }
      return null;
    }
    if (model.length() > Limits.MODEL_ID_MAX_CHARS || utf8(model) > Limits.MODEL_ID_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.MODEL_ID_TOO_LONG, null);
    }
    return model;
  }

  /** The provider route kind by its wire name (ollama, openai, ...). */
  public static ProviderKind providerKind(String provider, boolean required) {
    if (provider == null || provider.isBlank()) {
      if (required) {
        throw new WorkcellException(ErrorCode.INVALID_REQUEST, "provider is required");
      }
      return null;
    }
    try {
      return ProviderKind.fromWire(provider);
    } catch (IllegalArgumentException e) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "unknown provider: " + clip(provider));
    }
  }

  public static String providerId(String providerId) {
    if (providerId != null && providerId.length() > Limits.PROVIDER_ID_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.PROVIDER_ID_TOO_LONG, null);
    }
    return providerId == null || providerId.isBlank() ? null : providerId;
  }

  /** Stripped as task-service strips it, so both refuse the same titles. */
  public static String title(String title) {
    if (title != null && title.strip().length() > Limits.TITLE_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "the title exceeds " + Limits.TITLE_MAX_CHARS + " characters");
    }
    return title == null || title.isBlank() ? null : title;
  }

  /**
   * A host folder a new task asks for (decision 0023): blank is none; the rules (absolute, inside a root,
   * not denied) are sandbox-service's, on the real path. Only the size is bounded here.
   */
  public static String hostFolder(String folder) {
    if (folder == null || folder.isBlank()) {
      return null;
    }
    if (folder.length() > Limits.HOST_FOLDER_MAX_CHARS) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "workspaceFolder exceeds " + Limits.HOST_FOLDER_MAX_CHARS + " characters");
    }
    return folder;
  }

  /** A workspace path: relative, no `..`, backslash or NUL, at most 1024 bytes; empty is the root. */
  public static String workspacePath(String path, boolean required) {
    String value = path == null ? "" : path;
    if (required && value.isEmpty()) {
      throw new WorkcellException(ErrorCode.INVALID_PATH, "path is required");
    }
    boolean dotDot = false;
    for (String segment : value.split("/", -1)) {
      dotDot |= segment.equals("..");
    }
    if (value.startsWith("/") || dotDot || value.indexOf('\\') >= 0 || value.indexOf('\0') >= 0
        || utf8(value) > Limits.PATH_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.INVALID_PATH, null);
    }
    return value;
  }

  /** Ids go into NATS subjects for run events, so only subject-safe tokens pass. */
  public static String id(String id) {
    if (id == null || id.isEmpty() || id.length() > 100 || !id.matches("[A-Za-z0-9_-]+")) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, null);
    }
    return id;
  }

  public static String clip(String text) {
    return text.length() > 64 ? text.substring(0, 64) + "…" : text;
  }

  private static int utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }
}
