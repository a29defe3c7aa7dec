package dev.workcell.task.provider.repository;

import dev.workcell.task.provider.ProviderEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

@ApplicationScoped
public class ProviderRepository implements PanacheRepositoryBase<ProviderEntity, String> {

  public Uni<List<ProviderEntity>> allById() {
    return find("order by id").list();
  }
}
