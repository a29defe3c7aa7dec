package dev.workcell.task.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.PolicyView;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.WorkAdminApi.ListPolicies;
import dev.workcell.contracts.task.WorkAdminApi.PolicyList;
import dev.workcell.contracts.task.WorkAdminApi.SavePolicy;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A policy's egress allowlist in PostgreSQL: canonical on the way in, null (open) and empty (nothing) kept apart. */
@QuarkusTest
class PolicyEgressAllowlistTest {

  @Inject
  NatsRequester nats;

  private static SavePolicy policy(String id, String name, List<String> allowlist) {
    return new SavePolicy(id, name, null, null, null, null, null, null, true, false, true, false, allowlist);
  }

  @Test
  void anAllowlistIsStoredCanonicalAndCanBeOpenedOrEmptied() {
    WorkClient work = new WorkClient(nats);
    Actor admin = work.admin();
    String name = "egress-" + UUID.randomUUID();
    PolicyView saved = work.call(TaskSubjects.ADMIN_POLICY_SAVE,
        policy(null, name, List.of("PyPI.org", "*.github.com", "pypi.org.")), admin);
    assertThat(saved.egressAllowlist()).containsExactly("pypi.org", "*.github.com");
    PolicyList listed = work.call(TaskSubjects.POLICIES, new ListPolicies(), admin);
    assertThat(listed.policies()).filteredOn(p -> p.id().equals(saved.id())).singleElement()
        .satisfies(p -> assertThat(p.egressAllowlist()).containsExactly("pypi.org", "*.github.com"));

    assertThat(work.call(TaskSubjects.ADMIN_POLICY_SAVE, policy(saved.id(), name, List.of()), admin).egressAllowlist())
        .isEmpty();
    assertThat(work.call(TaskSubjects.ADMIN_POLICY_SAVE, policy(saved.id(), name, null), admin).egressAllowlist())
        .isNull();
    for (List<String> bad : List.of(List.of("10.0.0.1"), List.of("*.org"), List.of("a b.org"))) {
      assertThat(work.failure(TaskSubjects.ADMIN_POLICY_SAVE, policy(saved.id(), name, bad), admin)).isEqualTo(ErrorCode.INVALID_REQUEST);
    }
  }
}
