package dev.workcell.task.support;

import dev.workcell.contracts.Actor;
import dev.workcell.messaging.NatsRequester;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;

/**
 * The start most task-service tests share: task-service's subjects through a {@link WorkClient}, as
 * a fresh admin account (made per test, so tests never see each other's tasks).
 */
public abstract class AdminWorkTest {

  @Inject
  protected NatsRequester nats;

  protected WorkClient work;

  /** The caller of the test; owns the tasks it creates. */
  protected Actor admin;

  @BeforeEach
  void actAsFreshAdmin() {
    work = new WorkClient(nats);
    admin = work.admin();
  }
}
