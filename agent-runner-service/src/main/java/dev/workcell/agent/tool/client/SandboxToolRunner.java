package dev.workcell.agent.tool.client;

import dev.workcell.agent.tool.service.CommandWatch;
import dev.workcell.agent.tool.service.ToolInvocation;
import dev.workcell.agent.tool.service.ToolOutcome;
import dev.workcell.agent.tool.service.WorkspaceTools;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.agent.config.AgentSettings;
import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.DeleteFile;
import dev.workcell.contracts.sandbox.FileChanged;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.FileList;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.MoveFile;
import dev.workcell.contracts.preview.PreviewSubjects;
import dev.workcell.contracts.preview.PreviewSubjects.IssueLink;
import dev.workcell.contracts.preview.PreviewSubjects.PreviewLink;
import dev.workcell.contracts.sandbox.PreviewState;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SearchFiles;
import dev.workcell.contracts.sandbox.SearchResult;
import dev.workcell.contracts.sandbox.StartPreview;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.messaging.NatsRequester;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Runs a validated tool call through sandbox-service, the only holder of the runtime. Every call
 * names the task and its owner; sandbox-service checks the owner label again. A refusal with a code
 * (path_escape, not_found, timeout…) is a normal tool result the model reads and reacts to.
 */
@ApplicationScoped
public class SandboxToolRunner {

  private final NatsRequester requester;
  private final AgentSettings settings;
  private final ObjectMapper mapper;

  public SandboxToolRunner(NatsRequester requester, AgentSettings settings, ObjectMapper mapper) {
    this.requester = requester;
    this.settings = settings;
    this.mapper = mapper;
  }

  public ToolOutcome run(SandboxRef sandbox, ToolInvocation call) {
    return run(sandbox, call, CommandWatch.NONE);
  }

  /** Runs the call; a run_command carries a fresh execId that {@code watch} learns while it runs. */
  public ToolOutcome run(SandboxRef sandbox, ToolInvocation call, CommandWatch watch) {
    try {
      return dispatch(sandbox, call, watch);
    } catch (WorkcellException e) {
      return ToolOutcome.error(e.code().code() + ": " + e.getMessage());
    }
  }

  private ToolOutcome dispatch(SandboxRef sandbox, ToolInvocation call, CommandWatch watch) {
    Duration deadline = settings.sandboxTimeout();
    return switch (call.name()) {
      case WorkspaceTools.LIST_FILES -> {
        FileList list = request(SandboxSubjects.FILES_LIST, new ListFiles(sandbox, orEmpty(call.text("path"))), deadline);
        yield ToolOutcome.ok(json(list), list.truncated());
      }
      case WorkspaceTools.READ_FILE -> {
        FileContent file = request(SandboxSubjects.FILES_READ, new ReadFile(sandbox, call.text("path")), deadline);
        yield ToolOutcome.ok(file.content(), false);
      }
      case WorkspaceTools.WRITE_FILE -> {
        FileWritten written = request(SandboxSubjects.FILES_WRITE,
            new WriteFile(sandbox, call.text("path"), call.text("content"), null, true), deadline);
        yield ToolOutcome.ok("wrote " + written.path() + " (" + written.size() + " bytes)", false);
      }
      case WorkspaceTools.DELETE_FILE -> {
        FileChanged changed = request(SandboxSubjects.FILES_DELETE, new DeleteFile(sandbox, call.text("path"), call.flag("recursive")), deadline);
        yield ToolOutcome.ok("deleted " + changed.path(), false);
      }
      case WorkspaceTools.MOVE_FILE -> {
        FileChanged changed = request(SandboxSubjects.FILES_MOVE, new MoveFile(sandbox, call.text("from"), call.text("to")), deadline);
        yield ToolOutcome.ok("moved " + call.text("from") + " to " + changed.path(), false);
      }
      case WorkspaceTools.SEARCH_FILES -> {
        SearchResult result = request(SandboxSubjects.FILES_SEARCH,
            new SearchFiles(sandbox, orEmpty(call.text("path")), call.text("query"), call.integer("max_hits")), deadline);
        yield ToolOutcome.ok(json(result), result.truncated());
      }
      case WorkspaceTools.RUN_COMMAND -> command(sandbox, call, watch);
      case WorkspaceTools.START_PREVIEW -> {
        PreviewState preview = request(SandboxSubjects.PREVIEW_START, new StartPreview(sandbox, call.text("command")),
            deadline.plusSeconds(Limits.PREVIEW_READY_SECONDS));
        yield ToolOutcome.ok(json(started(sandbox, preview, deadline)), false);
      }
      case WorkspaceTools.STOP_PREVIEW -> {
        PreviewState preview = request(SandboxSubjects.PREVIEW_STOP, sandbox, deadline);
        yield ToolOutcome.ok(json(preview), false);
      }
      default -> ToolOutcome.error("unknown tool " + call.name());
    };
  }

  /**
   * The started preview with its signed URL, which preview-proxy (the only holder of the key) issues
   * for the generation now running. A link that cannot be issued leaves the preview running and says why.
   */
  private Map<String, Object> started(SandboxRef sandbox, PreviewState preview, Duration deadline) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("running", preview.running());
    out.put("command", preview.command());
    out.put("containerPort", preview.containerPort());
    if (preview.running()) {
      try {
        PreviewLink link = request(PreviewSubjects.LINK_ISSUE, new IssueLink(sandbox.taskId(), sandbox.ownerId(), null), deadline);
        // Without a configured public origin the path is the URL: it opens on the Workcell origin.
        out.put("url", link.url() != null ? link.url() : link.path());
        out.put("path", link.path());
        out.put("expiresAt", link.expiresAt().toString());
      } catch (WorkcellException e) {
        out.put("url", null);
        out.put("urlError", e.code().code() + ": " + e.getMessage());
      }
    }
    return out;
  }

  private ToolOutcome command(SandboxRef sandbox, ToolInvocation call, CommandWatch watch) {
    Integer asked = call.integer("timeout_seconds");
    // Without one of the model's own, sandbox-service applies WORK_COMMAND_TIMEOUT_MS (at most the maximum).
    Integer timeout = asked == null ? null : Math.clamp(asked, Limits.COMMAND_TIMEOUT_MIN_SECONDS, Limits.COMMAND_TIMEOUT_MAX_SECONDS);
    // The command's own timeout plus room for TERM, KILL and the reply.
    Duration deadline = Duration.ofSeconds(timeout == null ? Limits.COMMAND_TIMEOUT_MAX_SECONDS : timeout).plus(settings.sandboxTimeout());
    String execId = "run-" + UUID.randomUUID();
    CommandResult result;
    watch.started(sandbox, execId);
    try {
      result = request(SandboxSubjects.EXEC, new RunCommand(sandbox, call.text("command"), timeout, null, null, execId),
          deadline);
    } finally {
      watch.finished(execId);
    }
    String text = "exit code " + result.exitCode() + (result.timedOut() ? " (timed out)" : "") + "\n"
        + (result.stdout().isEmpty() ? "" : "stdout:\n" + result.stdout() + "\n")
        + (result.stderr().isEmpty() ? "" : "stderr:\n" + result.stderr() + "\n")
        + (result.truncated() ? "[output truncated: run a narrower command to see the rest]\n" : "");
    return result.exitCode() == 0 && !result.timedOut() ? ToolOutcome.ok(text, result.truncated())
        : new ToolOutcome("error", text, result.truncated());
  }

  private <Q, R> R request(Subject<Q, R> subject, Q body, Duration deadline) {
    return requester.request(subject, body, TaskServiceClient.RUNNER, deadline).await().atMost(deadline.plusSeconds(1));
  }

  private String json(Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      return String.valueOf(value);
    }
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }
}
