package dev.workcell.task.conversation;

import dev.workcell.contracts.task.ProviderKind;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunView;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Entity → contract record; the state and provider kind columns hold the enums' wire names. */
public final class RunMapper {

  private RunMapper() {}

  public static RunView toView(RunEntity r) {
    if (r == null) {
      return null;
    }
    return new RunView(r.id.toString(), r.taskId.toString(), RunState.fromWire(r.state), ProviderKind.fromWire(r.providerKind), r.providerId, r.model, r.reason,
        r.inputTokens, r.outputTokens, r.rounds, r.toolCalls, instant(r.createdAt), instant(r.startedAt),
        instant(r.finishedAt));
  }

  private static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }
}
