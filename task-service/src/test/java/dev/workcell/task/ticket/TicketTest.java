package dev.workcell.task.ticket;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.Actor;
import dev.workcell.contracts.RoleName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TicketApi.ConsumeTicket;
import dev.workcell.contracts.task.TicketApi.IssueTicket;
import dev.workcell.contracts.task.TicketApi.TicketGrant;
import dev.workcell.contracts.task.TicketApi.TicketIssued;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.task.support.Sql;
import dev.workcell.task.support.WorkClient;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

@QuarkusTest
class TicketTest {

  @Inject
  NatsRequester nats;

  @Inject
  Sql sql;

  @Inject
  ObjectMapper json;

  @Test
  void aTicketOpensOneConnectionForItsAudienceAndTask() throws Exception {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    String taskId = work.createTask(owner).task().id();
    String otherTask = work.createTask(owner).task().id();
    TicketIssued issued = work.call(TaskSubjects.TICKET_ISSUE, new IssueTicket(taskId, "terminal"),
        owner);

    assertThat(sql.list("select count(*) from ws_tickets where token_hash = ?1", Long.class, issued.ticket()))
        .containsExactly(0L);
    assertThat(work.failure(TaskSubjects.TICKET_CONSUME, new ConsumeTicket(issued.ticket(), "screen", taskId),
        WorkClient.GATEWAY)).isEqualTo(ErrorCode.UNAUTHENTICATED);
    assertThat(work.failure(TaskSubjects.TICKET_CONSUME, new ConsumeTicket(issued.ticket(), "terminal", otherTask),
        WorkClient.GATEWAY)).isEqualTo(ErrorCode.UNAUTHENTICATED);
    assertThat(work.failure(TaskSubjects.TICKET_CONSUME, new ConsumeTicket(issued.ticket(), "terminal", taskId), owner))
        .isEqualTo(ErrorCode.FORBIDDEN);

    TicketGrant grant = work.call(TaskSubjects.TICKET_CONSUME, new ConsumeTicket(issued.ticket(), "terminal", taskId),
        WorkClient.GATEWAY);

    assertThat(grant.accountId()).isEqualTo(owner.accountId());
    assertThat(grant.role()).isEqualTo(RoleName.ADMIN);
    // What terminal and preview-proxy read: the lowercase wire name, as before the enum.
    assertThat(json.writeValueAsString(grant)).contains("\"role\":\"admin\"");
    assertThat(work.failure(TaskSubjects.TICKET_CONSUME, new ConsumeTicket(issued.ticket(), "terminal", taskId),
        WorkClient.GATEWAY)).isEqualTo(ErrorCode.UNAUTHENTICATED);
  }

  @Test
  void anExpiredTicketIsRefused() {
    WorkClient work = new WorkClient(nats);
    Actor owner = work.admin();
    String taskId = work.createTask(owner).task().id();
    TicketIssued issued = work.call(TaskSubjects.TICKET_ISSUE, new IssueTicket(taskId, "screen"),
        owner);
    sql.update("update ws_tickets set expires_at = now() - interval '1 second' where task_id = ?1",
        java.util.UUID.fromString(taskId));

    assertThat(work.failure(TaskSubjects.TICKET_CONSUME, new ConsumeTicket(issued.ticket(), "screen", taskId),
        WorkClient.GATEWAY)).isEqualTo(ErrorCode.UNAUTHENTICATED);
  }
}
