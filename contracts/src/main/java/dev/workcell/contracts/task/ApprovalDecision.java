package dev.workcell.contracts.task;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Optional;

/**
 * How an approval was settled. The owner chooses {@link #OWNER_CHOICES}; task-service itself settles
 * with {@code rule} (an always-allow rule matched), {@code not_required} (approvals are off) or
 * {@code timeout} (it expired undecided).
 */
public enum ApprovalDecision {
  ALLOW_ONCE,
  ALWAYS_ALLOW,
  DENY,
  RULE,
  NOT_REQUIRED,
  TIMEOUT;

  /** What an owner may answer a pending approval with. */
  public static final List<ApprovalDecision> OWNER_CHOICES = List.of(ALLOW_ONCE, ALWAYS_ALLOW, DENY);

  /** The state an owner's choice leaves the approval in. */
  public ApprovalState outcome() {
    return this == DENY ? ApprovalState.DENIED : this == TIMEOUT ? ApprovalState.EXPIRED : ApprovalState.ALLOWED;
  }

  /** The JSON value, on NATS and REST alike, and the stored column value. */
  @JsonValue
  public String wire() {
    return name().toLowerCase();
  }

  /** Reads a wire value; an unknown value is an {@link IllegalArgumentException}. */
  @JsonCreator
  public static ApprovalDecision fromWire(String value) {
    return valueOf(value.trim().toUpperCase());
  }

  /** An owner's choice by its exact wire name, as a client sends it; empty for anything else. */
  public static Optional<ApprovalDecision> ownerChoice(String value) {
    return OWNER_CHOICES.stream().filter(choice -> choice.wire().equals(value)).findFirst();
  }
}
