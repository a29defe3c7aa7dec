package dev.workcell.sandbox.testing;

import static org.assertj.core.api.Assertions.fail;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.messaging.NatsRequester;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** Talks to sandbox-service the way other services do: NATS requests with an acting account. */
@ApplicationScoped
public class SandboxClient {

  /** agent-runner is the usual caller of the file and exec subjects. */
  public static final Actor RUNNER = Actor.service(ServiceName.AGENT_RUNNER);
  /** The owner of the sandbox shared by most tests. */
  public static final String SHARED_OWNER = "alice-test";

  private static volatile SandboxRef shared;

  private final NatsRequester requester;
  private final TaskServiceFixture fixture;

  public SandboxClient(NatsRequester requester, TaskServiceFixture fixture) {
    this.requester = requester;
    this.fixture = fixture;
  }

  public <Q, R> R call(Subject<Q, R> subject, Q body) {
    return call(subject, body, RUNNER);
  }

  public <Q, R> R call(Subject<Q, R> subject, Q body, Actor actor) {
    return requester.request(subject, body, actor, Duration.ofSeconds(90)).await().atMost(Duration.ofSeconds(95));
  }

  /** The error a request must fail with. */
  public <Q> WorkcellException failure(Subject<Q, ?> subject, Q body, Actor actor) {
    try {
      Object reply = call(subject, body, actor);
      return fail("expected %s to fail, got %s", subject, reply);
    } catch (WorkcellException e) {
      return e;
    }
  }

  public <Q> WorkcellException failure(Subject<Q, ?> subject, Q body) {
    return failure(subject, body, RUNNER);
  }

  /** A fresh task that the task-service fixture knows (deployment defaults, network on). */
  public SandboxRef newTask(String owner) {
    String id = "t-" + HexFormat.of().formatHex(randomBytes());
    fixture.add(id, owner);
    return new SandboxRef(id, owner);
  }

  /** A fresh Open Terminal user's home (only service actors may name one). */
  public SandboxRef newHome(String prefix) {
    return SandboxRef.home(prefix + "-" + HexFormat.of().formatHex(randomBytes()));
  }

  /** One sandbox reused across test classes (started if needed). */
  public SandboxRef shared() {
    if (shared == null) {
      synchronized (SandboxClient.class) {
        if (shared == null) {
          shared = newTask(SHARED_OWNER);
        }
      }
    }
    ensure(shared);
    return shared;
  }

  public SandboxState ensure(SandboxRef ref) {
    return call(SandboxSubjects.ENSURE, ref);
  }

  /** Runs {@code command} in the sandbox as agent-runner would, within 30 s. */
  public CommandResult run(SandboxRef ref, String command) {
    return call(SandboxSubjects.EXEC, new RunCommand(ref, command, 30));
  }

  public void deleteQuietly(SandboxRef ref) {
    try {
      call(SandboxSubjects.DELETE, ref);
    } catch (WorkcellException e) {
      // best effort; the cleanup resource removes leftovers by label
    }
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[5];
    ThreadLocalRandom.current().nextBytes(bytes);
    return bytes;
  }
}
