package dev.workcell.task.admin.messaging;

import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.DeleteAccount;
import dev.workcell.contracts.task.WorkAdminApi.GetAccess;
import dev.workcell.contracts.task.WorkAdminApi.ListAudit;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.contracts.task.WorkAdminApi.SetRole;
import dev.workcell.contracts.task.WorkAdminApi.SetStatus;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.admin.service.AccessAdministration;
import dev.workcell.task.audit.service.AuditQuery;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of Work access, roles, account deletion, and the audit log. */
@ApplicationScoped
public class AdminHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, AccessAdministration admin, AuditQuery audit) {
    responder.serve(TaskSubjects.ACCESS_GET, r -> admin.mode());
    responder.serve(TaskSubjects.ADMIN_ACCESS_SET, r -> admin.setMode(r.actor(), r.body()));
    responder.serve(TaskSubjects.ADMIN_ACCOUNTS, r -> admin.accounts(r.actor()));
    responder.serve(TaskSubjects.ADMIN_ROLE_SET, r -> admin.setRole(r.actor(), r.body()));
    responder.serve(TaskSubjects.ADMIN_STATUS_SET, r -> admin.setStatus(r.actor(), r.body()));
    responder.serve(TaskSubjects.ADMIN_ACCOUNT_DELETE,
        r -> admin.deleteAccount(r.actor(), r.body()));
    responder.serve(TaskSubjects.ADMIN_AUDIT, r -> audit.page(r.actor(), r.body()));
  }
}
