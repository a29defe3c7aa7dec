package dev.workcell.contracts.task;

import dev.workcell.contracts.RoleName;
import java.time.Instant;

/** One append-only audit entry; {@code detail} is a JSON object as text. */
public record AuditEntryView(long id, Instant at, String actorId, RoleName actorRole, String action, String taskId, String detail) {}
