package dev.workcell.task.audit.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.RoleName;
import dev.workcell.contracts.task.AuditEntryView;
import dev.workcell.contracts.task.WorkAdminApi.AuditPage;
import dev.workcell.contracts.task.WorkAdminApi.ListAudit;
import dev.workcell.task.access.service.WorkAccess;
import dev.workcell.task.audit.AuditEntryEntity;
import dev.workcell.task.audit.repository.AuditRepository;
import dev.workcell.task.support.Failures;
import dev.workcell.task.support.Ids;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;

/** Admins read the audit log, newest first. */
@ApplicationScoped
public class AuditQuery {

  private final WorkAccess access;
  private final AuditRepository entries;

  public AuditQuery(WorkAccess access, AuditRepository entries) {
    this.access = access;
    this.entries = entries;
  }

  public Uni<AuditPage> page(Actor actor, ListAudit request) {
    UUID taskId = request.taskId() == null ? null
        : Ids.parse(request.taskId()).orElseThrow(() -> Failures.invalid("taskId is not an id"));
    int limit = request.limit() <= 0 ? 100 : Math.min(request.limit(), 500);
    long before = request.beforeId() == null ? Long.MAX_VALUE : request.beforeId();
    return Panache.withSession(() -> access.requireAdmin(actor)
        .chain(() -> entries.page(taskId, before, limit + 1))
        .map(rows -> {
          boolean more = rows.size() > limit;
          List<AuditEntryEntity> page = more ? rows.subList(0, limit) : rows;
          return new AuditPage(page.stream().map(AuditQuery::toView).toList(),
              more ? page.get(page.size() - 1).id : null);
        }));
  }

  static AuditEntryView toView(AuditEntryEntity e) {
    return new AuditEntryView(e.id, e.at == null ? null : e.at.toInstant(), e.actorId, RoleName.fromWire(e.actorRole), e.action,
        e.taskId == null ? null : e.taskId.toString(), e.detail);
  }
}
