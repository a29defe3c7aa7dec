package dev.workcell.task.preview.repository;

import dev.workcell.task.preview.PreviewStateEntity;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

@ApplicationScoped
public class PreviewRepository implements PanacheRepositoryBase<PreviewStateEntity, UUID> {}
