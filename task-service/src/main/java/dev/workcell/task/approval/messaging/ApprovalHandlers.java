package dev.workcell.task.approval.messaging;

import dev.workcell.contracts.task.ApprovalApi.DecideApproval;
import dev.workcell.contracts.task.ApprovalApi.DeleteApprovalRule;
import dev.workcell.contracts.task.ApprovalApi.SetApprovals;
import dev.workcell.contracts.task.RunnerApi.ApprovalRef;
import dev.workcell.contracts.task.RunnerApi.RequestApproval;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.run.messaging.RunControlPublisher;
import dev.workcell.task.approval.service.ApprovalService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of approvals. */
@ApplicationScoped
public class ApprovalHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, ApprovalService approvals, RunControlPublisher control) {
    responder.serve(TaskSubjects.APPROVALS, r -> approvals.list(r.actor(), r.body()));
    responder.serve(TaskSubjects.APPROVALS_TOGGLE, r -> approvals.toggle(r.actor(), r.body()));
    // The waiting runner reads the decision at once instead of at its next poll.
    responder.serve(TaskSubjects.APPROVAL_DECIDE, r -> approvals.decide(r.actor(), r.body())
        .invoke(decided -> control.push(decided.taskId(), decided.runId(), RunControlApi.APPROVAL, null)));
    responder.serve(TaskSubjects.APPROVAL_RULE_DELETE,
        r -> approvals.deleteRule(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_APPROVAL_REQUEST,
        r -> approvals.request(r.actor(), r.body()));
    responder.serve(TaskSubjects.RUNNER_APPROVAL_GET, r -> approvals.get(r.actor(), r.body()));
  }
}
