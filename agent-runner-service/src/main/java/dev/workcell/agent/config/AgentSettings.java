package dev.workcell.agent.config;

import dev.workcell.contracts.Limits;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * How agent runs are driven. Seed 004's {@code WORK_*} names are environment aliases of these
 * properties (see application.properties).
 */
@ConfigMapping(prefix = "workcell.agent")
public interface AgentSettings {

  /** Model/tool rounds per run on every provider route (WORK_MAX_AGENT_ROUNDS). */
  @WithDefault("" + Limits.DEFAULT_MAX_AGENT_ROUNDS)
  int maxRounds();

  /** Rounds in a row that may answer nothing before the run gives up nudging. */
  @WithDefault("2")
  int emptyRoundNudges();

  /** Assistant text is published at most this often, so a fast stream is not one event per token. */
  @WithDefault("32ms")
  Duration assistantDeltaCoalesce();

  /** Runs one runner process drives at once; further requests wait on the work queue. */
  @WithDefault("16")
  int maxConcurrentRuns();

  /** Deadline of task-service requests made while driving a run. */
  @WithDefault("10s")
  Duration taskServiceTimeout();

  /** Deadline of sandbox file and preview requests (commands get their own timeout plus this). */
  @WithDefault("60s")
  Duration sandboxTimeout();

  /**
   * How long a run that finds no free sandbox slot waits in line for one before it ends needs_input
   * (WORK_RUN_LEASE_WAIT_MS). A model's command without a timeout of its own gets sandbox-service's
   * WORK_COMMAND_TIMEOUT_MS, so that setting has one owner.
   */
  @WithDefault("60s")
  Duration runLeaseWait();

  /** Longest wait for a provider's response headers; the stream itself may take longer. */
  @WithDefault("120s")
  Duration providerConnectTimeout();

  /**
   * A provider stream that delivers no bytes for this long fails its round ({@code provider_error})
   * and the run (WORK_PROVIDER_IDLE_TIMEOUT_MS). Counted on bytes, so a long tool-argument line is no stall.
   */
  @WithDefault("120s")
  Duration providerIdleTimeout();

  /** Output tokens a provider that needs a cap (Anthropic) may generate per round. */
  @WithDefault("8192")
  int maxOutputTokens();

  /** How often a pending approval is read again while the run waits for the owner's decision. */
  @WithDefault("1s")
  Duration approvalPoll();

  /**
   * How often the runner renews its lease on each run it drives (task-service's lease, 20 s by
   * default, must be several beats long).
   */
  @WithDefault("5s")
  Duration leaseHeartbeat();

  /**
   * Mid-run messages are pushed (the run's control subject) and a round asks task-service for them
   * only after a push; it asks anyway when this long passed since it last asked, so a lost push
   * delays a message by at most about this long.
   */
  @WithDefault("2s")
  Duration pendingMessagesFallback();

  /**
   * Bytes of content the runner holds at once (models' answers while they stream, 4 bytes a
   * character); unset: a quarter of the maximum heap. Over it a round fails {@code rate_limited}.
   */
  Optional<Long> budgetBytes();

  /** Bytes one account's runs hold at once; unset: a quarter of {@link #budgetBytes()}. */
  Optional<Long> budgetPerUserBytes();

  /**
   * Characters of text and reasoning one round may stream; past it the round
   * is cut with {@code provider_error}. Far above any real answer: it stops a runaway stream.
   */
  @WithDefault("4000000")
  int roundMaxChars();

  /**
   * Longest line of a provider's stream (and longest server-sent event), in characters. Gemini sends
   * a tool call's arguments whole, so this allows a 2,000,000-byte file written with JSON escapes.
   */
  @WithDefault("8388608")
  int providerMaxLineChars();

  /** The tool-call safety budget: max(128, 8 × rounds). */
  default int toolCallBudget() {
    return Limits.toolCallBudget(maxRounds());
  }
}
