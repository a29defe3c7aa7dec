package dev.workcell.contracts.task;

import java.time.Instant;

/** One append-only audit entry; {@code detail} is a JSON object as text. */
public record AuditEntryView(long id, Instant at, String actorId, String actorRole, String action, String taskId, String detail) {}
