package dev.workcell.task.access.repository;

import dev.workcell.task.access.WorkSettingsEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class WorkSettingsRepository implements PanacheRepositoryBase<WorkSettingsEntity, Short> {

  public Uni<WorkSettingsEntity> settings() {
    return findById(WorkSettingsEntity.ID);
  }
}
