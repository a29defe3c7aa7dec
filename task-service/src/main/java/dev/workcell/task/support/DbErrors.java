package dev.workcell.task.support;

import io.vertx.pgclient.PgException;
import java.sql.SQLException;
import org.hibernate.exception.ConstraintViolationException;

/** Reads PostgreSQL constraint violations out of Hibernate Reactive's exception chains. */
public final class DbErrors {

  private static final String UNIQUE_VIOLATION = "23505";

  private DbErrors() {}

  /**
   * True when {@code failure} is a unique violation of the named index or constraint. Hibernate
   * Reactive may hand it over as its own exception, a converted SQLException or the driver's.
   */
  public static boolean uniqueViolation(Throwable failure, String constraint) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConstraintViolationException c && constraint.equals(c.getConstraintName())) {
        return true;
      }
      String state = t instanceof PgException pg ? pg.getSqlState() : t instanceof SQLException sql ? sql.getSQLState() : null;
      if (UNIQUE_VIOLATION.equals(state) || String.valueOf(t.getMessage()).contains("(" + UNIQUE_VIOLATION + ")")) {
        if (String.valueOf(t.getMessage()).contains("\"" + constraint + "\"")
            || t instanceof PgException pg && constraint.equals(pg.getConstraint())) {
          return true;
        }
      }
    }
    return false;
  }
}
