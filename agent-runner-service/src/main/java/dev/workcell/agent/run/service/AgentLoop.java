package dev.workcell.agent.run.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.agent.budget.service.RunnerBudget;
import dev.workcell.agent.config.AgentSettings;
import dev.workcell.agent.run.service.RunSignals.RunEndedElsewhere;
import dev.workcell.agent.provider.ChatMessage;
import dev.workcell.agent.provider.ModelProvider;
import dev.workcell.agent.provider.service.ProviderRegistry;
import dev.workcell.agent.provider.ProviderRoute;
import dev.workcell.agent.provider.RoundRequest;
import dev.workcell.agent.provider.RoundResult;
import dev.workcell.agent.task.client.TaskServiceClient;
import dev.workcell.agent.tool.client.SandboxToolRunner;
import dev.workcell.agent.tool.service.ToolBatchValidator;
import dev.workcell.agent.tool.service.ToolBatchValidator.Verdict;
import dev.workcell.agent.tool.service.ToolInvocation;
import dev.workcell.agent.tool.service.ToolOutcome;
import dev.workcell.agent.tool.service.WorkspaceTools;
import dev.workcell.contracts.Limits;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.run.RunEventType;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.ApprovalState;
import dev.workcell.contracts.task.ApprovalView;
import dev.workcell.contracts.task.MessageRole;
import dev.workcell.contracts.task.MessageView;
import dev.workcell.contracts.task.RunState;
import dev.workcell.contracts.task.RunnerApi.ClaimedRun;
import dev.workcell.contracts.task.RunnerApi.PendingMessages;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import dev.workcell.contracts.task.RunnerApi.RunSpec;
import dev.workcell.agent.run.service.RunWrites.Usage;
import dev.workcell.contracts.task.ToolCall;
import dev.workcell.messaging.JetStreamPublisher;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Drives one run that is already running: model rounds with tools until the model answers without
 * tool calls (completed), the budget is spent (a final request without tools asks for a handoff,
 * then needs_input), the run ends in task-service (the owner cancels: the model stream and any
 * command in flight stop at once; the lease is lost), or something fails. Blocks its (virtual)
 * thread throughout.
 */
@ApplicationScoped
public class AgentLoop {

  private final TaskServiceClient tasks;
  private final ProviderRegistry providers;
  private final SandboxToolRunner tools;
  private final JetStreamPublisher publisher;
  private final AgentSettings settings;
  private final ToolBatchValidator validator;
  private final ApprovalGate approvals;
  private final DrivenRuns driven;
  private final RuntimeSlots slots;
  private final RunnerBudget budget;

  public AgentLoop(TaskServiceClient tasks, ProviderRegistry providers, SandboxToolRunner tools, JetStreamPublisher publisher,
      AgentSettings settings, ObjectMapper mapper, ApprovalGate approvals, DrivenRuns driven, RuntimeSlots slots,
      RunnerBudget budget) {
    this.slots = slots;
    this.budget = budget;
    this.approvals = approvals;
    this.tasks = tasks;
    this.providers = providers;
    this.tools = tools;
    this.publisher = publisher;
    this.settings = settings;
    this.validator = new ToolBatchValidator(mapper);
    this.driven = driven;
  }

  /**
   * Drives a claimed run to its end and reports the final state to task-service, which ends the live
   * stream. While it runs, the runner holds the run's lease (taken by the claim) and listens on its
   * control subject ({@code signals}, opened before the claim); both are let go here.
   */
  public RunOutcome drive(ClaimedRun claimed, RunSignals signals) {
    RunRef ref = signals.ref();
    try {
      return drive(claimed, ref, signals);
    } finally {
      slots.release(ref.runId());
      driven.close(signals);
    }
  }

  private RunOutcome drive(ClaimedRun claimed, RunRef ref, RunSignals signals) {
    RunSpec spec = claimed.spec();
    RunEventStream events = new RunEventStream(publisher, ref.taskId(), ref.runId());
    RunWrites writes = new RunWrites(tasks, ref);
    RunOutcome outcome;
    try {
      if (signals.ended() != null) {
        throw new RunEndedElsewhere();
      }
      ProviderRoute route = new ProviderRoute(spec.run().providerKind(), spec.run().providerId(),
          spec.run().model());
      events.emit(RunEventType.RUN_STATE, "state", RunState.RUNNING.wire(), "providerKind", route.kind().wire(),
          "providerId", route.effectiveProviderId(), "model", route.model(), "remote", route.remote());
      events.emit(RunEventType.SKILL_LOADED, "skills", WorkerGuidance.SKILLS.stream().map(WorkerGuidance.Skill::name).toList());
      outcome = new Run(claimed, ref, route, events, signals, writes).rounds();
    } catch (RunEndedElsewhere e) {
      outcome = elsewhere(ref, signals);
    } catch (WorkcellException e) {
      // A refusal may only mean the run ended meanwhile (task-service then refuses appends).
      outcome = signals.ended() != null ? elsewhere(ref, signals)
          : endedElsewhere(ref).orElseGet(() -> fail(events, e.code(), e.getMessage()));
    } catch (RuntimeException e) {
      if (signals.ended() != null) {
        outcome = elsewhere(ref, signals);
      } else {
        Log.errorf(e, "run %s failed", ref.runId());
        outcome = fail(events, ErrorCode.INTERNAL, "the runner failed: " + e.getClass().getSimpleName());
      }
    }
    return finish(ref, events, outcome, writes);
  }

  /** The run's state in task-service if it already ended there (cancelled by its owner, lease lost). */
  private Optional<RunOutcome> endedElsewhere(RunRef ref) {
    try {
      RunState state = tasks.state(ref, driven.runnerId());
      return state.active() ? Optional.empty()
          : Optional.of(new RunOutcome(state, "the run was " + state.wire() + " in task-service", true));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** How a run that stopped because it ended in task-service ended there. */
  private RunOutcome elsewhere(RunRef ref, RunSignals signals) {
    RunSignals.Ended ended = signals.ended();
    if (ended != null) {
      return new RunOutcome(ended.state(), ended.reason(), true);
    }
    return endedElsewhere(ref).orElse(new RunOutcome(RunState.NEEDS_INPUT, "the run was cancelled by its owner", true));
  }

  private static RunOutcome fail(RunEventStream events, ErrorCode code, String message) {
    events.emit(RunEventType.ERROR, "code", code.code(), "message", message);
    return new RunOutcome(RunState.FAILED, message);
  }

  /**
   * The run's last writes land, its events are stored, then task-service ends it and publishes the
   * final run_state and done after the runner's last event. A run that ended in task-service already
   * has them (task-service publishes the end of every run it ends).
   */
  private RunOutcome finish(RunRef ref, RunEventStream events, RunOutcome outcome, RunWrites writes) {
    Thread.interrupted(); // a cancel's interrupt must not break the last calls
    writes.close(); // every write (settled already unless the run stopped early) lands before the run's end
    events.drain();
    if (!outcome.elsewhere()) {
      try {
        tasks.transition(ref, outcome.state(), outcome.reason());
      } catch (WorkcellException e) {
        // conflict: the run ended in task-service while the last round ran; that end stands.
        Log.infof("run %s: final transition to %s refused: %s", ref.runId(), outcome.state().wire(), e.getMessage());
        outcome = endedElsewhere(ref).orElse(outcome);
      } catch (RuntimeException e) {
        // task-service unreachable: the run stays active there until its lease lapses; the sweeper then ends it.
        Log.warnf("run %s: final transition to %s not sent: %s", ref.runId(), outcome.state().wire(), e.getMessage());
      }
    }
    return outcome;
  }

  /** The state of one run while it is driven. */
  private final class Run {
    private final RunSpec spec;
    private final List<MessageView> context;
    private final RunRef ref;
    private final ProviderRoute route;
    private final RunEventStream events;
    private final RunSignals signals;
    private final RunWrites writes;
    private final SandboxRef sandbox;
    private final List<ChatMessage> conversation = new ArrayList<>();
    private final RunToolCallIds callIds = new RunToolCallIds();
    private final int maxRounds = settings.maxRounds();
    private final int toolBudget = settings.toolCallBudget();
    private final long pendingFallbackNanos = settings.pendingMessagesFallback().toNanos();
    private long lastPendingAsk = System.nanoTime();
    private int toolCallsUsed;
    private Usage usage; // of the last round, recorded with what the round produced

    Run(ClaimedRun claimed, RunRef ref, ProviderRoute route, RunEventStream events, RunSignals signals, RunWrites writes) {
      this.signals = signals;
      this.writes = writes;
      this.spec = claimed.spec();
      this.context = claimed.context().messages();
      this.ref = ref;
      this.route = route;
      this.events = events;
      this.sandbox = new SandboxRef(spec.task().id(), spec.task().ownerId());
    }

    RunOutcome rounds() {
      RunOutcome outcome = play();
      if (!outcome.elsewhere()) {
        writes.settle(); // a refused last write means the run did not end here as it thinks
      }
      return outcome;
    }

    private RunOutcome play() {
      // Refuse before any round: an unknown route, or an Ollama model without tools.
      providers.resolve(route).checkModel(route.model());
      // The run keeps its sandbox slot throughout; one it cannot get ends it here, before the model spends a round.
      if (slots.acquire(sandbox, signals, () -> events.emit(RunEventType.RUN_STATE, "state", RunState.RUNNING.wire(),
          "awaiting", "runtime")) instanceof RuntimeSlots.Outcome.Refused refused) {
        return new RunOutcome(RunState.NEEDS_INPUT, "no sandbox slot for this run: " + refused.reason());
      }
      if (signals.ended() != null) {
        return elsewhere(ref, signals);
      }
      conversation.addAll(ConversationMapper.toChat(context));
      callIds.seenIn(conversation);
      String system = WorkerGuidance.systemPrompt(spec.task(), spec.policy(), maxRounds, toolBudget);
      int nudges = 0;
      for (int round = 1; round <= maxRounds; round++) {
        RunOutcome stopped = takePendingMessages(false);
        if (stopped != null) {
          return stopped;
        }
        RoundResult result = request(round, new RoundRequest(route.model(), system, conversation, WorkspaceTools.ALL));
        if (!result.hasToolCalls()) {
          if (result.text().isBlank()) {
            recordRound(null, List.of());
            if (nudges++ < settings.emptyRoundNudges()) {
              conversation.add(ChatMessage.user(WorkerGuidance.EMPTY_ROUND_NUDGE));
              continue;
            }
            return new RunOutcome(RunState.NEEDS_INPUT, "the model kept answering nothing");
          }
          recordRound(result.text(), List.of());
          return new RunOutcome(RunState.COMPLETED, null);
        }
        nudges = 0;
        if (toolCallsUsed + result.toolCalls().size() > toolBudget) {
          recordRound(null, List.of()); // the calls do not run: only the round's usage is kept
          return handoff(system, "tool-call budget of " + toolBudget + " spent");
        }
        recordRound(result.text(), result.toolCalls());
        BatchEnd end = runBatch(result.toolCalls());
        if (end == BatchEnd.APPROVAL_EXPIRED) {
          return handoff(system, "an approval was not decided in time; the action did not run");
        }
        if (end == BatchEnd.CANCELLED) {
          return elsewhere(ref, signals);
        }
      }
      return handoff(system, "round budget of " + maxRounds + " spent");
    }

    /**
     * Appends messages the owner posted since the last round; a run cancelled meanwhile stops here.
     * Asks task-service only after a pushed notice, when {@code always}, or when the fallback
     * interval passed (a lost push); the notice is taken before asking, so a message posted while
     * the ask is on its way is asked for at the next round.
     */
    private RunOutcome takePendingMessages(boolean always) {
      if (signals.ended() != null) {
        return elsewhere(ref, signals);
      }
      boolean noticed = signals.takeMessageNotice();
      if (!always && !noticed && System.nanoTime() - lastPendingAsk < pendingFallbackNanos) {
        return null;
      }
      writes.settle(); // the run's messages so far are stored before the ones posted meanwhile are handed over
      lastPendingAsk = System.nanoTime();
      PendingMessages pending = tasks.pending(ref);
      RunState state = pending.runState();
      if (!state.active()) {
        return new RunOutcome(state, "the run was " + state.wire() + " in task-service", true);
      }
      for (MessageView message : pending.messages()) {
        if (message.role() == MessageRole.USER) {
          conversation.add(ChatMessage.user(message.content()));
        }
      }
      return null;
    }

    private RoundResult request(int round, RoundRequest request) {
      // Re-checked before every request: the run's own route, never another provider.
      ModelProvider provider = providers.resolve(route);
      DeltaCoalescer deltas = new DeltaCoalescer(events, settings.assistantDeltaCoalesce());
      RoundResult result;
      // The answer is counted as it streams (runner budget, owner share); a runaway stream is cut at the round limit.
      try (HeldRound held = new HeldRound(deltas, budget.round(spec.task().ownerId()), settings.roundMaxChars())) {
        // A cancel or a lost lease interrupts the stream: the round ends there, unrecorded.
        result = callIds.unique(signals.streaming(() -> provider.stream(request, held)));
      }
      if (signals.ended() != null) {
        throw new RunEndedElsewhere();
      }
      deltas.flush();
      int calls = request.tools().isEmpty() ? 0 : result.toolCalls().size();
      events.emit(RunEventType.USAGE, "round", round, "inputTokens", result.inputTokens(), "outputTokens", result.outputTokens(),
          "toolCalls", calls);
      usage = new Usage(result.inputTokens(), result.outputTokens(), calls);
      return result;
    }

    private RunOutcome handoff(String system, String why) {
      RunOutcome stopped = takePendingMessages(true);
      if (stopped != null) {
        return stopped;
      }
      List<ChatMessage> messages = new ArrayList<>(conversation);
      messages.add(ChatMessage.user(WorkerGuidance.HANDOFF_REQUEST));
      RoundResult result = request(maxRounds + 1, new RoundRequest(route.model(), system, messages, List.of()));
      recordRound(result.text().isBlank() ? "The run stopped: " + why + "." : result.text(), List.of());
      return new RunOutcome(RunState.NEEDS_INPUT, why);
    }

    /** The last round in one write: its usage and, unless {@code text} is null, its assistant message. */
    private void recordRound(String text, List<ToolCall> calls) {
      writes.round(usage, text, calls);
      if (text != null) {
        conversation.add(ChatMessage.assistant(text, calls));
      }
    }

    private BatchEnd runBatch(List<ToolCall> calls) {
      for (ToolCall call : calls) {
        events.emit(RunEventType.TOOL_CALL, "id", call.id(), "name", call.name(), "arguments", call.arguments());
      }
      Verdict verdict = validator.check(calls);
      BatchEnd end = BatchEnd.CONTINUE;
      for (int i = 0; i < calls.size(); i++) {
        ToolCall call = calls.get(i);
        ToolOutcome outcome;
        if (!verdict.runnable()) {
          outcome = ToolOutcome.error("Not run: this batch of tool calls had invalid arguments, so none of its calls ran. "
              + String.join("; ", verdict.problems()) + ". Send the calls again with complete, valid JSON arguments.");
        } else if (signals.ended() != null) {
          return BatchEnd.CANCELLED;
        } else if (end != BatchEnd.CONTINUE) {
          outcome = ToolOutcome.error("Not run: the run is stopping.");
        } else {
          ToolInvocation invocation = verdict.invocations().get(i);
          if (!WorkspaceTools.readOnly(call.name())) {
            writes.settle(); // the call is on record before it changes anything
          }
          ApprovalView approval = ApprovalGate.gated(call.name()) ? approvals.decide(ref, invocation,
              () -> events.emit(RunEventType.RUN_STATE, "state", RunState.RUNNING.wire(), "awaiting", "approval", "toolCallId", call.id()),
              this::stillActive, signals::pause) : null;
          if (signals.ended() != null) {
            return BatchEnd.CANCELLED;
          }
          if (approval == null || approval.allowed()) {
            writes.toolStarted(call);
            outcome = tools.run(sandbox, invocation, signals);
            if (signals.ended() != null) {
              return BatchEnd.CANCELLED; // the command was stopped; task-service refuses records of an ended run
            }
          } else if (approval.state() == ApprovalState.DENIED) {
            outcome = new ToolOutcome("denied", "The owner denied this action; it did not run. Choose another way or ask.", false);
          } else if (approval.state() == ApprovalState.PENDING) {
            end = BatchEnd.CANCELLED;
            outcome = ToolOutcome.error("Not run: the run was cancelled while the action waited for approval.");
          } else {
            end = BatchEnd.APPROVAL_EXPIRED;
            outcome = ToolOutcome.error("Not run: the approval expired undecided.");
          }
        }
        if (end == BatchEnd.CANCELLED) {
          return end; // task-service refuses records for an ended run
        }
        writes.toolFinished(call, outcome);
        events.emit(RunEventType.TOOL_RESULT, "id", call.id(), "name", call.name(), "status", outcome.status(),
            "output", bounded(outcome.output()), "truncated", outcome.truncated());
        conversation.add(ChatMessage.tool(call.id(), Objects.requireNonNullElse(outcome.output(), "")));
      }
      toolCallsUsed += calls.size();
      return end;
    }

    private boolean stillActive() {
      return signals.ended() == null && endedElsewhere(ref).isEmpty();
    }
  }

  /** How a batch of tool calls ended. */
  private enum BatchEnd {
    CONTINUE,
    APPROVAL_EXPIRED,
    CANCELLED
  }

  private static String bounded(String output) {
    if (output == null || output.length() <= Limits.STORED_TOOL_OUTPUT_CHARS) {
      return output;
    }
    return output.substring(0, Limits.STORED_TOOL_OUTPUT_CHARS) + "\n[… " + (output.length() - Limits.STORED_TOOL_OUTPUT_CHARS)
        + " more characters]";
  }
}
