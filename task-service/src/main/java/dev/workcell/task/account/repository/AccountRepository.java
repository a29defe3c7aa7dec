package dev.workcell.task.account.repository;

import dev.workcell.task.account.AccountEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

@ApplicationScoped
public class AccountRepository implements PanacheRepositoryBase<AccountEntity, UUID> {

  public Uni<AccountEntity> findByUsername(String username) {
    return find("username", username).firstResult();
  }
}
