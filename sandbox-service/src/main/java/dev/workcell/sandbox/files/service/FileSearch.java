package dev.workcell.sandbox.files.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.GlobFiles;
import dev.workcell.contracts.sandbox.GlobResult;
import dev.workcell.contracts.sandbox.GrepFiles;
import dev.workcell.contracts.sandbox.GrepResult;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.celld.client.CelldRequest;
import dev.workcell.sandbox.celld.client.ToolReplies;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.lifecycle.service.SandboxLifecycle;
import dev.workcell.sandbox.lifecycle.service.SandboxSession;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Set;

/**
 * grep (RE2 or literal, with a file-name include glob) and glob over the sandbox's files, each one
 * celld walk that never follows links. Patterns are compiled by celld ({@code invalid_pattern}); a Work
 * sandbox's reply carries at most WORK_MAX_OUTPUT_CHARS characters of paths and lines ({@link
 * SearchOutputCap}). Blocking.
 */
@ApplicationScoped
public class FileSearch {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final int PATTERN_MAX_CHARS = 1_000;
  private static final int RESULTS_MAX = 1_000;
  private static final int RESULTS_DEFAULT = 50;
  private static final Set<String> TYPES = Set.of("any", "file", "directory");

  private final SandboxLifecycle lifecycle;
  private final int maxOutputChars;

  public FileSearch(SandboxLifecycle lifecycle, SandboxSettings settings) {
    this.lifecycle = lifecycle;
    this.maxOutputChars = settings.maxOutputChars();
  }

  public GrepResult grep(GrepFiles request) {
    String dir = WorkspacePath.directory(request.path());
    var grep = new CelldRequest.Grep(dir, pattern(request.query(), "query"), request.regex(), request.caseInsensitive(),
        request.matchPerLine(), maxResults(request.maxResults()),
        request.include() == null || request.include().isEmpty() ? null : pattern(request.include(), "include"));
    GrepResult result = ToolReplies.grep(call(request.sandbox(), grep));
    return SearchOutputCap.grep(result, SearchOutputCap.limit(request.sandbox(), maxOutputChars));
  }

  public GlobResult glob(GlobFiles request) {
    String dir = WorkspacePath.directory(request.path());
    String type = request.type() == null ? "any" : request.type();
    if (!TYPES.contains(type)) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "type must be any, file or directory");
    }
    var glob = new CelldRequest.Glob(dir, pattern(request.pattern(), "pattern"), type, maxResults(request.maxResults()),
        request.exclude() == null || request.exclude().isEmpty() ? null : pattern(request.exclude(), "exclude"));
    GlobResult result = ToolReplies.glob(call(request.sandbox(), glob));
    return SearchOutputCap.glob(result, SearchOutputCap.limit(request.sandbox(), maxOutputChars));
  }

  private JsonNode call(SandboxRef ref, CelldRequest request) {
    try (SandboxSession session = lifecycle.use(ref)) {
      return session.celld().call(request, TIMEOUT);
    }
  }

  private static String pattern(String value, String name) {
    if (value == null || value.isEmpty() || value.length() > PATTERN_MAX_CHARS || value.indexOf('\0') >= 0) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, name + " must be 1.." + PATTERN_MAX_CHARS + " characters without NUL");
    }
    return value;
  }

  private static int maxResults(Integer value) {
    int n = value == null ? RESULTS_DEFAULT : value;
    if (n < 1 || n > RESULTS_MAX) {
      throw new WorkcellException(ErrorCode.INVALID_ARGUMENT, "maxResults must be 1.." + RESULTS_MAX);
    }
    return n;
  }
}
