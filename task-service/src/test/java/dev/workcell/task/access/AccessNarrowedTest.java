package dev.workcell.task.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.RoleName;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TaskSubjects.AccessNarrowed;
import dev.workcell.contracts.task.WorkAdminApi.DeleteAccount;
import dev.workcell.contracts.task.WorkAdminApi.SetAccess;
import dev.workcell.contracts.task.WorkAdminApi.SetRole;
import dev.workcell.contracts.task.WorkAdminApi.SetStatus;
import dev.workcell.messaging.MessageCodec;
import dev.workcell.messaging.NatsConnection;
import dev.workcell.task.support.AdminWorkTest;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every committed change that can narrow an account's reach is announced to the gateways (which
 * reuse ownership answers until told otherwise), before task-service answers the admin.
 */
@QuarkusTest
class AccessNarrowedTest extends AdminWorkTest {

  @Inject
  NatsConnection connection;

  @Inject
  MessageCodec codec;

  private Subscription notices;

  @BeforeEach
  void listen() throws Exception {
    notices = connection.connection().subscribe(TaskSubjects.ACCESS_NARROWED.pattern());
    connection.connection().flush(Duration.ofSeconds(5));
  }

  @AfterEach
  void stop() {
    notices.unsubscribe();
  }

  /** The notices already here when the admin's answer came (none may still be on its way). */
  private List<AccessNarrowed> heard() throws InterruptedException {
    List<AccessNarrowed> out = new ArrayList<>();
    for (Message m = notices.nextMessage(Duration.ofMillis(200)); m != null; m = notices.nextMessage(Duration.ofMillis(200))) {
      out.add(codec.decode(m.getData(), AccessNarrowed.class));
    }
    return out;
  }

  @Test
  void disablingDemotingAndClosingWorkAreAnnounced() throws Exception {
    Actor user = work.account(Actor.Role.USER);
    Actor other = work.admin();

    work.call(TaskSubjects.ADMIN_STATUS_SET, new SetStatus(user.accountId(), "disabled"), admin);
    assertThat(heard()).containsExactly(AccessNarrowed.account(user.accountId()));

    work.call(TaskSubjects.ADMIN_ROLE_SET, new SetRole(other.accountId(), RoleName.USER), admin);
    assertThat(heard()).containsExactly(AccessNarrowed.account(other.accountId()));

    work.call(TaskSubjects.ADMIN_ACCESS_SET, new SetAccess("admins"), admin);
    assertThat(heard()).containsExactly(AccessNarrowed.everyAccount());
  }

  @Test
  void aRefusedChangeAnnouncesNothing() throws Exception {
    Actor user = work.account(Actor.Role.USER);
    work.failure(TaskSubjects.ADMIN_STATUS_SET, new SetStatus(admin.accountId(), "disabled"), user);
    assertThat(heard()).isEmpty();
  }

  @Test
  void aDeletedTaskIsAnnouncedWhenMarkedAndAgainWhenGone() throws Exception {
    String taskId = work.createTask(admin).task().id();

    work.call(TaskSubjects.DELETE, new TaskRef(taskId), admin);

    AccessNarrowed task = AccessNarrowed.task(admin.accountId(), taskId);
    assertThat(heard()).containsExactly(task, task);
  }

  @Test
  void aDeletedAccountsTasksAndTheAccountAreAnnounced() throws Exception {
    Actor doomed = work.admin();
    String taskId = work.createTask(doomed).task().id();

    work.call(TaskSubjects.ADMIN_ACCOUNT_DELETE, new DeleteAccount(doomed.accountId()), admin);

    AccessNarrowed task = AccessNarrowed.task(doomed.accountId(), taskId);
    assertThat(heard()).containsExactly(task, task, AccessNarrowed.account(doomed.accountId()));
  }
}
