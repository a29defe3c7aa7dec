package dev.workcell.sandbox.git.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.GitStatus;
import dev.workcell.contracts.sandbox.GitStatus.GitFile;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A strict reader of {@code git status --porcelain=v2 --branch -z}: every record is NUL-terminated,
 * a rename or copy carries its source as one more NUL-terminated field. Anything else is refused.
 */
final class PorcelainV2 {

  private static final Pattern XY = Pattern.compile("[.MTADRCU?!]{2}");
  private static final Pattern AB = Pattern.compile("\\+(\\d{1,9}) -(\\d{1,9})");
  private static final Pattern OID = Pattern.compile("[0-9a-f]{40,64}");
  private static final int MAX_FILES = 100_000;

  private PorcelainV2() {}

  static GitStatus parse(String output) {
    String[] records = output.isEmpty() ? new String[0] : output.split("\0", -1);
    int end = records.length;
    if (end > 0) {
      if (!records[end - 1].isEmpty()) {
        throw malformed("the last record is not NUL-terminated");
      }
      end--;
    }
    String branch = null;
    String head = null;
    int ahead = 0;
    int behind = 0;
    List<GitFile> files = new ArrayList<>();
    for (int i = 0; i < end; i++) {
      String record = records[i];
      if (files.size() >= MAX_FILES) {
        throw malformed("more than " + MAX_FILES + " changed files");
      }
      if (record.startsWith("# ")) {
        String[] header = record.substring(2).split(" ", 2);
        String value = header.length == 2 ? header[1] : "";
        switch (header[0]) {
          case "branch.oid" -> {
            if (!"(initial)".equals(value) && !OID.matcher(value).matches()) {
              throw malformed("branch.oid " + value);
            }
            head = "(initial)".equals(value) ? null : value;
          }
          case "branch.head" -> branch = "(detached)".equals(value) ? null : nonEmpty(value, "branch.head");
          case "branch.ab" -> {
            var m = AB.matcher(value);
            if (!m.matches()) {
              throw malformed("branch.ab " + value);
            }
            ahead = Integer.parseInt(m.group(1));
            behind = Integer.parseInt(m.group(2));
          }
          default -> {
            // branch.upstream and headers of later git versions carry nothing we report
          }
        }
        continue;
      }
      char kind = record.isEmpty() ? ' ' : record.charAt(0);
      switch (kind) {
        case '1' -> files.add(changed(fields(record, 9), null));
        case '2' -> {
          String[] f = fields(record, 10);
          if (i + 1 >= end) {
            throw malformed("rename without its source path");
          }
          if (!f[8].matches("[RC]\\d{1,3}")) {
            throw malformed("rename score " + f[8]);
          }
          files.add(new GitFile(nonEmpty(f[9], "path"), letter(f[1].charAt(0)), letter(f[1].charAt(1)), nonEmpty(records[++i], "source path")));
        }
        case 'u' -> files.add(changed(fields(record, 11), null));
        case '?' -> files.add(new GitFile(nonEmpty(record.length() > 2 ? record.substring(2) : "", "path"), "?", "?", null));
        case '!' -> {
          // ignored files are not requested (no --ignored); tolerate them without reporting
        }
        default -> throw malformed("unknown record kind '" + kind + "'");
      }
    }
    return new GitStatus(branch, head, ahead, behind, files, List.of());
  }

  /** The record's first n-1 space-separated fields and, last, the path (which may contain spaces). */
  private static String[] fields(String record, int n) {
    String[] f = record.split(" ", n);
    if (f.length != n || !XY.matcher(f[1]).matches()) {
      throw malformed("record does not have " + n + " fields");
    }
    return f;
  }

  private static GitFile changed(String[] f, String from) {
    return new GitFile(nonEmpty(f[f.length - 1], "path"), letter(f[1].charAt(0)), letter(f[1].charAt(1)), from);
  }

  private static String letter(char c) {
    return String.valueOf(c);
  }

  private static String nonEmpty(String value, String what) {
    if (value == null || value.isEmpty()) {
      throw malformed(what + " is empty");
    }
    return value;
  }

  private static WorkcellException malformed(String what) {
    return new WorkcellException(ErrorCode.INTERNAL, "git status output does not parse: " + what);
  }
}
