package dev.workcell.task.run.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.RunnerApi.RecordRound;
import dev.workcell.contracts.task.RunnerApi.RoundRecorded;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.conversation.MessageEntity;
import dev.workcell.task.conversation.MessageMapper;
import dev.workcell.task.conversation.repository.ActiveRunAppend;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import dev.workcell.task.support.Text;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;

/**
 * The runner records each model round with one write: the usage deltas and, when the round produced
 * one, the assistant message with its tool calls. Content is stored up to 100 kB and over-long tool
 * arguments become small valid JSON, each with a marker: a run never fails on a long answer.
 */
@ApplicationScoped
public class RunRounds {

  private final RunService runs;
  private final ActiveRunAppend appends;
  private final MessageMapper mapper;

  public RunRounds(RunService runs, ActiveRunAppend appends, MessageMapper mapper) {
    this.runs = runs;
    this.appends = appends;
    this.mapper = mapper;
  }

  public Uni<RoundRecorded> record(Actor actor, RecordRound request) {
    WorkAccess.requireService(actor);
    if (request.inputTokens() < 0 || request.outputTokens() < 0 || request.toolCalls() < 0) {
      throw Failures.invalid("usage deltas cannot be negative");
    }
    String text = request.text();
    String toolCalls = text == null ? null : mapper.encodeToolCalls(boundArguments(request.calls()));
    if (toolCalls != null && Text.utf8Length(toolCalls) > Limits.STORED_MESSAGE_MAX_BYTES) {
      throw Failures.invalid("the tool calls exceed " + Limits.STORED_MESSAGE_MAX_BYTES + " bytes");
    }
    Text.Bounded content = text == null ? null : Text.boundBytes(text, Limits.STORED_MESSAGE_MAX_BYTES);
    UUID taskId = Ids.parse(request.taskId()).orElse(null);
    UUID runId = Ids.parse(request.runId()).orElse(null);
    if (taskId == null || runId == null) {
      return Failures.fail(ErrorCode.NOT_FOUND, "no such run");
    }
    // The runner's hottest write: one autocommitted statement, no ORM session; only a refused round opens one to say why.
    return appends.round(taskId, runId, request.inputTokens(), request.outputTokens(), request.toolCalls(),
            content == null ? null : content.text(), toolCalls, content != null && content.truncated())
        .chain(stored -> stored.active() ? Uni.createFrom().item(stored)
            : Panache.withSession(() -> runs.runOf(request.taskId(), request.runId())).chain(run -> Failures.<ActiveRunAppend.Stored>fail(
                ErrorCode.CONFLICT, "the run is " + run.state + "; nothing more is recorded for it")))
        .map(stored -> {
          if (stored.messageId() == null) {
            return new RoundRecorded(null);
          }
          MessageEntity message = MessageEntity.stored(stored.messageId(), taskId, runId, MessageRole.ASSISTANT.wire(),
              content.text(), content.truncated(), stored.createdAt());
          message.toolCalls = toolCalls;
          return new RoundRecorded(mapper.toView(message));
        });
  }

  /** Arguments are replayed to the provider, so an over-long one becomes small valid JSON. */
  private static List<ToolCall> boundArguments(List<ToolCall> calls) {
    if (calls == null) {
      return null;
    }
    return calls.stream().map(call -> {
      if (call.id() == null || call.name() == null) {
        throw Failures.invalid("every tool call has an id and a name");
      }
      String args = call.arguments();
      if (args != null && args.length() > Limits.STORED_TOOL_OUTPUT_CHARS) {
        args = "{\"truncated\":true,\"originalChars\":" + args.length() + "}";
      }
      return new ToolCall(call.id(), call.name(), args);
    }).toList();
  }
}
