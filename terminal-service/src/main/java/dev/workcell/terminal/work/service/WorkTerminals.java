package dev.workcell.terminal.work.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.TaskApi.TaskRef;
import dev.workcell.contracts.task.TaskState;
import dev.workcell.contracts.task.TaskSubjects;
import dev.workcell.contracts.task.TicketApi.ConsumeTicket;
import dev.workcell.contracts.task.TicketApi.TicketGrant;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.terminal.config.TerminalServiceSettings;
import dev.workcell.terminal.sandbox.client.RemoteTerminal;
import dev.workcell.terminal.sandbox.client.SandboxTerminals;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Work terminal (seed 004): a shell in a task's sandbox for its owner, opened with a one-time
 * ticket. The ticket's account is checked again while the session is open ({@link #recheck}): a
 * disabled account, a closed Work, a deleted or re-owned task ends the shell. At most
 * {@code WORK_TERMINAL_MAX_SESSIONS_PER_TASK} sessions per task; refused while a model run owns the
 * container, so a person and the model never type into the same workspace at once.
 */
@ApplicationScoped
public class WorkTerminals {

  public static final String AUDIENCE = "terminal";
  private static final Actor SELF = Actor.service(ServiceName.TERMINAL);
  private static final Set<TaskState> RUN_OWNS = Set.of(TaskState.PREPARING, TaskState.RUNNING);

  /** An open Work terminal: who it acts as and where. */
  public record Grant(Actor actor, String taskId, SandboxRef sandbox) {}

  private final NatsRequester requester;
  private final SandboxTerminals terminals;
  private final TerminalServiceSettings settings;
  private final Map<String, AtomicInteger> perTask = new ConcurrentHashMap<>();

  public WorkTerminals(NatsRequester requester, SandboxTerminals terminals, TerminalServiceSettings settings) {
    this.requester = requester;
    this.terminals = terminals;
    this.settings = settings;
  }

  /** Spends the ticket, checks the task is free of a run and under the session cap. */
  public Uni<Grant> admit(String ticket, String taskId) {
    if (ticket == null || ticket.isBlank() || taskId == null || taskId.isBlank()) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.UNAUTHENTICATED, "ticket and taskId are required"));
    }
    return requester.request(TaskSubjects.TICKET_CONSUME, new ConsumeTicket(ticket, AUDIENCE, taskId), SELF)
        .chain(grant -> {
          Actor actor = actor(grant);
          return requester.request(TaskSubjects.GET, new TaskRef(grant.taskId()), actor).chain(detail -> {
            if (RUN_OWNS.contains(detail.task().state())) {
              throw new WorkcellException(ErrorCode.RUN_ACTIVE,
                  "A model run is working in this task's sandbox; the terminal opens when it has finished");
            }
            return requester.request(TaskSubjects.SANDBOX, new TaskRef(grant.taskId()), actor)
                .map(sandbox -> new Grant(actor, grant.taskId(), sandbox));
          });
        });
  }

  /** Opens the shell, counting it against the task's cap until it ends. */
  public Uni<RemoteTerminal> open(Grant grant, Integer cols, Integer rows) {
    AtomicInteger count = perTask.computeIfAbsent(grant.taskId(), id -> new AtomicInteger());
    if (count.incrementAndGet() > settings.work().maxSessionsPerTask()) {
      count.decrementAndGet();
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.TOO_MANY_TERMINALS,
          "This task has " + settings.work().maxSessionsPerTask() + " terminals open already"));
    }
    return terminals.open(grant.sandbox(), cols, rows)
        .onFailure().invoke(e -> count.decrementAndGet())
        .invoke(terminal -> terminal.ended().whenComplete((code, e) -> count.decrementAndGet()));
  }

  /** Fails when the account, its Work access, the task or its ownership no longer hold. */
  public Uni<SandboxRef> recheck(Grant grant) {
    return requester.request(TaskSubjects.SANDBOX, new TaskRef(grant.taskId()), grant.actor());
  }

  private static Actor actor(TicketGrant grant) {
    return new Actor(grant.accountId(), grant.role().role());
  }
}
