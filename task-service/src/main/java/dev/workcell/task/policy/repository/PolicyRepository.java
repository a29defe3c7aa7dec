package dev.workcell.task.policy.repository;

import dev.workcell.task.policy.RuntimePolicyEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;

@ApplicationScoped
public class PolicyRepository implements PanacheRepositoryBase<RuntimePolicyEntity, UUID> {

  public Uni<List<RuntimePolicyEntity>> allByName() {
    return find("order by name").list();
  }
}
