package dev.workcell.task.audit.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.Actor;
import dev.workcell.task.audit.AuditEntryEntity;
import dev.workcell.task.audit.repository.AuditRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.UUID;

/**
 * Appends security-relevant events. Called inside the transaction of the change it records, so an
 * entry exists exactly when the change committed.
 */
@ApplicationScoped
public class AuditLog {

  private final AuditRepository entries;
  private final ObjectMapper json;

  public AuditLog(AuditRepository entries, ObjectMapper json) {
    this.entries = entries;
    this.json = json;
  }

  public Uni<Void> record(Actor actor, String action, UUID taskId, Map<String, ?> detail) {
    AuditEntryEntity entry = new AuditEntryEntity();
    entry.actorId = actor.accountId();
    entry.actorRole = actor.role().wire();
    entry.action = action;
    entry.taskId = taskId;
    entry.detail = encode(detail);
    return entries.persist(entry).replaceWithVoid();
  }

  private String encode(Map<String, ?> detail) {
    if (detail == null || detail.isEmpty()) {
      return null;
    }
    try {
      String text = json.writeValueAsString(detail);
      return text.length() > 20_000 ? text.substring(0, 20_000) : text;
    } catch (JsonProcessingException e) {
      return String.valueOf(detail);
    }
  }
}
