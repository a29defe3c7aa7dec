package dev.workcell.contracts;

import dev.workcell.contracts.account.Account;
import dev.workcell.contracts.account.EnsureAccount;
import dev.workcell.contracts.account.GetAccount;
import dev.workcell.contracts.ping.Ping;
import dev.workcell.contracts.ping.Pong;
import dev.workcell.contracts.run.RunEvent;
import dev.workcell.contracts.subject.NatsUser;
import dev.workcell.contracts.subject.Push;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.contracts.task.RunnerApi.RunRef;
import java.util.EnumMap;
import java.util.Map;

/**
 * Subjects shared by the whole suite. Request/reply subjects are {@code workcell.<service>.<verb>},
 * served by a queue group named after the service so any number of replicas can answer; the
 * per-service tables are {@code TaskSubjects}, {@code SandboxSubjects} and {@code ProviderSubjects}.
 */
public final class Subjects {

  public static final String PREFIX = "workcell";

  /** Creates the account if missing and returns it: {@code bin/workcell token}. */
  public static final Subject<EnsureAccount, Account> ACCOUNT_ENSURE =
      Subject.of(PREFIX + ".task.account.ensure", EnsureAccount.class, Account.class, ServiceName.TASK, NatsUser.CLI);

  /** Reads an account by id; replies not_found when missing. */
  public static final Subject<GetAccount, Account> ACCOUNT_GET =
      Subject.of(PREFIX + ".task.account.get", GetAccount.class, Account.class, ServiceName.TASK, NatsUser.GATEWAY);

  /** JetStream work queue of run-start requests: task-service puts, agent-runner takes. */
  public static final Push<RunRef> RUN_REQUESTS = Push.stored(PREFIX + ".run.requests", RunRef.class,
      "WORKCELL_RUN_REQUESTS", Push.by(NatsUser.TASK), Push.by(NatsUser.AGENT_RUNNER));

  /**
   * Live run events, {@code workcell.run.events.<taskId>.<runId>}: agent-runner, and task-service for
   * the last events of runs it ends; the gateway streams them, operators may watch.
   */
  public static final Push<RunEvent> RUN_EVENTS = Push.stored(PREFIX + ".run.events.*.*", RunEvent.class,
      "WORKCELL_RUN_EVENTS", Push.by(NatsUser.AGENT_RUNNER, NatsUser.TASK), Push.by(NatsUser.GATEWAY, NatsUser.OPERATOR));

  private static final Map<ServiceName, Subject<Ping, Pong>> PINGS = new EnumMap<>(ServiceName.class);

  static {
    for (ServiceName service : ServiceName.values()) {
      PINGS.put(service, Subject.of(PREFIX + "." + service.id() + ".ping", Ping.class, Pong.class, service,
          NatsUser.CLI, NatsUser.OPERATOR));
    }
  }

  private Subjects() {}

  /** The subject each service answers with a {@link Pong}. */
  public static Subject<Ping, Pong> ping(ServiceName service) {
    return PINGS.get(service);
  }

  /** The last token of the liveness subject that any live instance of a service answers (queue group). */
  public static final String ANY_INSTANCE = "any";

  /**
   * The liveness subject of one instance of a service, {@code workcell.<service>.alive.<instance>}:
   * answered at once while the instance is connected; NATS answers "no responders" once it is gone
   * (decision 0024). {@link #ANY_INSTANCE} reaches whichever instance is up.
   */
  public static String alive(ServiceName service, String instance) {
    return PREFIX + "." + service.id() + ".alive." + instance;
  }

  /** Every liveness subject of a service's instances: what its callers may publish and it may subscribe to. */
  public static String alivePattern(ServiceName service) {
    return alive(service, "*");
  }

  /** The queue group every replica of a service joins for its request subjects. */
  public static String queueGroup(ServiceName service) {
    return service.id();
  }

  /** Per-run event subject; ids are UUIDs, which are valid subject tokens. */
  public static String runEvents(String taskId, String runId) {
    return RUN_EVENTS.subject(taskId, runId);
  }
}
