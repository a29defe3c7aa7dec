package dev.workcell.contracts;

/**
 * Every NATS subject of the suite. Request/reply subjects are {@code workcell.<service>.<verb>},
 * served by a queue group named after the service so any number of replicas can answer.
 * docs/nats.md lists who publishes and who listens.
 */
public final class Subjects {

  public static final String PREFIX = "workcell";

  /** task-service: create the account if missing and return it (used by the launcher and the gateway). */
  public static final String ACCOUNT_ENSURE = PREFIX + ".task.account.ensure";

  /** task-service: read an account by id; replies not_found when missing. */
  public static final String ACCOUNT_GET = PREFIX + ".task.account.get";

  /** JetStream work queue of run-start requests (agent-runner consumes). */
  public static final String RUN_REQUESTS = PREFIX + ".run.requests";

  /** JetStream subjects of live run events: {@code workcell.run.events.<taskId>.<runId>}. */
  public static final String RUN_EVENTS_ALL = PREFIX + ".run.events.>";

  private Subjects() {}

  /** The subject each service answers with a {@link dev.workcell.contracts.ping.Pong}. */
  public static String ping(ServiceName service) {
    return PREFIX + "." + service.id() + ".ping";
  }

  /** The queue group every replica of a service joins for its request subjects. */
  public static String queueGroup(ServiceName service) {
    return service.id();
  }

  /** Per-run event subject; ids are UUIDs, which are valid subject tokens. */
  public static String runEvents(String taskId, String runId) {
    requireToken(taskId);
    requireToken(runId);
    return PREFIX + ".run.events." + taskId + "." + runId;
  }

  private static void requireToken(String token) {
    if (token == null || token.isEmpty() || !token.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException("not a subject token: " + token);
    }
  }
}
