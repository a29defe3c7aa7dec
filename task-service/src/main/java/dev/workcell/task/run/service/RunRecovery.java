package dev.workcell.task.run.service;

import dev.workcell.task.config.TaskSettings;
import dev.workcell.task.support.ReactiveContext;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.OffsetDateTime;

/**
 * At start, runs left active by a crash cannot be resumed: they are marked failed with a reason,
 * their tasks leave preparing/running, and preview state is cleared (the processes behind it are
 * gone). Operators deploying several task-service replicas turn this off on all but one.
 */
@ApplicationScoped
public class RunRecovery {

  public static final String REASON = "interrupted: the service restarted while the run was active";

  private final ReactiveContext context;
  private final TaskSettings settings;

  public RunRecovery(ReactiveContext context, TaskSettings settings) {
    this.context = context;
    this.settings = settings;
  }

  /** What one recovery changed. */
  public record Recovered(int failedRuns, int resetTasks, int clearedPreviews) {}

  void atStart(@Observes StartupEvent event) {
    if (!settings.recoverAtStart()) {
      return;
    }
    Recovered recovered = recover().await().atMost(Duration.ofSeconds(60));
    Log.infof("start-up recovery: %d runs failed, %d tasks reset, %d previews cleared",
        recovered.failedRuns(), recovered.resetTasks(), recovered.clearedPreviews());
  }

  public Uni<Recovered> recover() {
    return context.run(() -> {
      OffsetDateTime now = OffsetDateTime.now();
      return Panache.withTransaction(() -> Panache.getSession().chain(session -> session
          .createMutationQuery("update RunEntity r set r.state = 'failed', r.reason = :reason, r.finishedAt = :now"
              + " where r.state in ('preparing', 'running')")
          .setParameter("reason", REASON).setParameter("now", now).executeUpdate()
          .chain(runs -> session.createMutationQuery("update TaskEntity t set t.state = 'failed', t.updatedAt = :now,"
                  + " t.lastFinishedAt = :now where t.state in ('preparing', 'running')")
              .setParameter("now", now).executeUpdate()
              .chain(tasks -> session.createMutationQuery("delete from PreviewStateEntity").executeUpdate()
                  .map(previews -> new Recovered(runs, tasks, previews))))));
    });
  }
}
