package dev.workcell.task.support;

import io.quarkus.hibernate.reactive.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * Raw SQL for what no subject may do: writing around the service to prove the database itself
 * enforces a rule, or moving a deadline into the past.
 */
@ApplicationScoped
public class Sql {

  private final ReactiveContext context;

  public Sql(ReactiveContext context) {
    this.context = context;
  }

  public int update(String sql, Object... params) {
    return context.run(() -> Panache.withTransaction(() -> Panache.getSession().chain(session -> {
      var query = session.createNativeQuery(sql);
      for (int i = 0; i < params.length; i++) {
        query.setParameter(i + 1, params[i]);
      }
      return query.executeUpdate();
    }))).await().atMost(Duration.ofSeconds(30));
  }

  public <T> List<T> list(String sql, Class<T> type, Object... params) {
    return context.run(() -> Panache.withSession(() -> Panache.getSession().chain(session -> {
      var query = session.createNativeQuery(sql, type);
      for (int i = 0; i < params.length; i++) {
        query.setParameter(i + 1, params[i]);
      }
      return query.getResultList();
    }))).await().atMost(Duration.ofSeconds(30));
  }
}
