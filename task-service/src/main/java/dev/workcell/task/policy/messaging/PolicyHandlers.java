package dev.workcell.task.policy.messaging;

import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.ListPolicies;
import dev.workcell.contracts.task.WorkAdminApi.PolicyRef;
import dev.workcell.contracts.task.WorkAdminApi.SavePolicy;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.task.policy.service.PolicyService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** NATS subjects of runtime policies. */
@ApplicationScoped
public class PolicyHandlers {

  void register(@Observes StartupEvent event, NatsResponder responder, PolicyService policies) {
    responder.serve(TaskSubjects.POLICIES, r -> policies.list(r.actor()));
    responder.serve(TaskSubjects.ADMIN_POLICY_SAVE, r -> policies.save(r.actor(), r.body()));
    responder.serve(TaskSubjects.ADMIN_POLICY_DELETE, r -> policies.delete(r.actor(), r.body()));
  }
}
