package dev.workcell.contracts;

import java.time.Duration;
import java.util.List;

/** JetStream streams of the suite: what must survive a restart of any service. */
public final class Streams {

  /** Run-start requests: a work queue, each request taken by exactly one agent-runner. */
  public static final StreamSpec RUN_REQUESTS =
      new StreamSpec("WORKCELL_RUN_REQUESTS", List.of(Subjects.RUN_REQUESTS.pattern()), Retention.WORK_QUEUE, Duration.ofDays(1));

  /** Live run events with per-run subjects, kept so an SSE client can resume after a reconnect. */
  public static final StreamSpec RUN_EVENTS =
      new StreamSpec("WORKCELL_RUN_EVENTS", List.of(Subjects.RUN_EVENTS.pattern()), Retention.LIMITS, Duration.ofDays(7));

  public static final List<StreamSpec> ALL = List.of(RUN_REQUESTS, RUN_EVENTS);

  private Streams() {}

  public enum Retention {
    LIMITS,
    WORK_QUEUE
  }

  public record StreamSpec(String name, List<String> subjects, Retention retention, Duration maxAge) {}
}
