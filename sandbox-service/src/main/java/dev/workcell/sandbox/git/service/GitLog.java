package dev.workcell.sandbox.git.service;

import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.GitStatus.GitCommit;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A strict reader of {@code git log -z --format=%H%x00%aI%x00<author>%x00<subject>}: every commit
 * is NUL-terminated and its four fields NUL-separated (git never puts a NUL in a name or subject), so
 * the output is exactly 4 × n fields, each followed by a NUL. Anything else is refused.
 */
final class GitLog {

  /** git pads author and subject to these columns and cuts longer ones with "..". */
  static final int AUTHOR_COLUMNS = 100;
  static final int SUBJECT_COLUMNS = 200;
  /** The git arguments that print the format this class reads. */
  static final String FORMAT = "--format=%H%x00%aI%x00%<(" + AUTHOR_COLUMNS + ",trunc)%an%x00%<(" + SUBJECT_COLUMNS + ",trunc)%s";

  private static final Pattern OID = Pattern.compile("[0-9a-f]{40,64}");
  private static final int FIELDS = 4;
  private static final int TEXT_MAX_CHARS = 1_000;

  private GitLog() {}

  static List<GitCommit> parse(String output) {
    if (output.isEmpty()) {
      return List.of();
    }
    if (!output.endsWith("\0")) {
      throw malformed("the last commit is not NUL-terminated");
    }
    String[] fields = output.substring(0, output.length() - 1).split("\0", -1);
    if (fields.length % FIELDS != 0) {
      throw malformed(fields.length + " fields, not " + FIELDS + " per commit");
    }
    if (fields.length / FIELDS > Limits.GIT_LOG_MAX_COMMITS) {
      throw malformed("more than " + Limits.GIT_LOG_MAX_COMMITS + " commits");
    }
    List<GitCommit> commits = new ArrayList<>(fields.length / FIELDS);
    for (int i = 0; i < fields.length; i += FIELDS) {
      if (!OID.matcher(fields[i]).matches()) {
        throw malformed("commit hash " + fields[i]);
      }
      OffsetDateTime time;
      try {
        time = OffsetDateTime.parse(fields[i + 1]);
      } catch (DateTimeParseException e) {
        throw malformed("author date " + fields[i + 1]);
      }
      commits.add(new GitCommit(fields[i], text(fields[i + 3]), text(fields[i + 2]), time.toInstant()));
    }
    return List.copyOf(commits);
  }

  /** The field without git's padding. Zero-width characters take no column, so git's cut alone does not bound it. */
  private static String text(String field) {
    String text = field.stripTrailing();
    if (text.length() <= TEXT_MAX_CHARS) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(TEXT_MAX_CHARS - 1)) ? TEXT_MAX_CHARS - 1 : TEXT_MAX_CHARS;
    return text.substring(0, end);
  }

  private static WorkcellException malformed(String what) {
    return new WorkcellException(ErrorCode.INTERNAL, "git log output does not parse: " + what);
  }
}
