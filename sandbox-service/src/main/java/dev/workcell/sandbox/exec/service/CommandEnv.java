package dev.workcell.sandbox.exec.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** Extra environment variables of a command or background process: names {@code [A-Za-z_][A-Za-z0-9_]*}, bounded. */
public final class CommandEnv {

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final int ENV_MAX_ENTRIES = 256;
  private static final int ENV_MAX_CHARS = 128 * 1024;

  private CommandEnv() {}

  /** The variables as celld's {@code env} argument (in the caller's order, null values as ""), or {@code invalid_argument}. */
  public static Map<String, String> validate(Map<String, String> env) {
    if (env.size() > ENV_MAX_ENTRIES) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "at most " + ENV_MAX_ENTRIES + " environment variables");
    }
    Map<String, String> out = new LinkedHashMap<>();
    long chars = 0;
    for (Map.Entry<String, String> e : env.entrySet()) {
      String name = e.getKey();
      String value = e.getValue() == null ? "" : e.getValue();
      if (name == null || !ENV_NAME.matcher(name).matches() || "CELLD_JOB".equals(name) || value.indexOf('\0') >= 0) {
        throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "invalid environment variable " + name);
      }
      chars += name.length() + value.length();
      if (chars > ENV_MAX_CHARS) {
        throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "environment variables exceed " + ENV_MAX_CHARS + " characters");
      }
      out.put(name, value);
    }
    return out;
  }
}
