package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Client paths ↔ home-relative sandbox paths. Clients see the home as {@code /home/user}; they may
 * send {@code /home/user/x}, {@code ~/x} or {@code x} (relative to the session's directory). Anything
 * else absolute, any {@code ..}, backslash or NUL is refused here, so sandbox-service only ever gets
 * a relative path without {@code ..} ({@code ""} is the home itself). celld still confines every
 * open beneath the home, links included.
 */
public final class HomePaths {

  public static final String HOME = "/home/user";

  private HomePaths() {}

  /** {@code cwd} is home-relative (from {@link SessionCwds}); {@code null}/blank {@code path} means {@code cwd}. */
  public static String resolve(String path, String cwd) {
    String base = cwd == null ? "" : cwd;
    if (path == null || path.isEmpty() || path.equals(".")) {
      return base;
    }
    if (path.indexOf('\0') >= 0 || path.indexOf('\\') >= 0) {
      throw new WorkcellException(ErrorCode.INVALID_PATH, "The path contains a NUL or backslash: " + clip(path));
    }
    String relative;
    if (path.equals(HOME) || path.startsWith(HOME + "/")) {
      relative = path.substring(HOME.length());
    } else if (path.equals("~") || path.startsWith("~/")) {
      relative = path.substring(1);
    } else if (path.startsWith("/")) {
      throw new WorkcellException(ErrorCode.PATH_ESCAPE,
          "Only paths in the home directory " + HOME + " are available: " + clip(path));
    } else {
      relative = base.isEmpty() ? path : base + "/" + path;
    }
    return normalize(relative, path);
  }

  /** How a home-relative path is shown to clients. */
  public static String present(String relative) {
    return relative == null || relative.isEmpty() ? HOME : HOME + "/" + relative;
  }

  private static String normalize(String relative, String original) {
    List<String> segments = new ArrayList<>();
    for (String segment : relative.split("/")) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        throw new WorkcellException(ErrorCode.PATH_ESCAPE, "Paths with '..' are not accepted: " + clip(original));
      }
      segments.add(segment);
    }
    String result = String.join("/", segments);
    if (result.getBytes(StandardCharsets.UTF_8).length > Limits.PATH_MAX_BYTES) {
      throw new WorkcellException(ErrorCode.INVALID_PATH, "The path exceeds 1024 bytes");
    }
    return result;
  }

  private static String clip(String path) {
    String printable = path.replace('\0', '?');
    return printable.length() > 120 ? printable.substring(0, 120) + "…" : printable;
  }
}
