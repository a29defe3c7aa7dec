package dev.workcell.task.access;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** The one row of {@code work_settings}. Its task counter is maintained by native updates only. */
@Entity
@Table(name = "work_settings")
public class WorkSettingsEntity extends PanacheEntityBase {

  public static final short ID = 1;
  public static final String ADMINS = "admins";
  public static final String USERS = "users";

  @Id
  public Short id;

  /** admins or users. */
  @Column(name = "access_mode", nullable = false)
  public String accessMode;

  @Column(name = "updated_at", nullable = false)
  public OffsetDateTime updatedAt;

  @Column(name = "updated_by")
  public String updatedBy;
}
