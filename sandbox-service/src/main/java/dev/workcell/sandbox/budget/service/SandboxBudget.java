package dev.workcell.sandbox.budget.service;

import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.messaging.budget.ByteBudget;
import dev.workcell.messaging.budget.ByteBudgetMetrics;
import dev.workcell.messaging.budget.Held;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * sandbox-service's {@link ByteBudget} of content in memory: file contents written (from the request
 * until celld answered), file contents and command output read (from celld's reply until the NATS
 * reply is sent). Keyed by the sandbox's user: a task's owner, or a home's user. Over budget the
 * request is answered {@code rate_limited} (429 at the gateway) and what it carried is dropped.
 * Bytes queued towards a celld that does not read are capped separately ({@code celld.queue-limit}).
 */
@ApplicationScoped
public class SandboxBudget {

  /**
   * A write's content: its bytes taken out of the NATS message and celld's frame holding them again
   * (the queued frame is the queue budget's). A text is UTF-8 bytes all the way (no string, no escaping).
   */
  public static final int WRITE_COPIES = 2;
  /** A reply: the decoded value and the encoded NATS reply. */
  public static final int REPLY_COPIES = 2;

  private final ByteBudget budget;

  @Inject
  public SandboxBudget(@ConfigProperty(name = "workcell.sandbox.budget.bytes") Optional<Long> bytes,
      @ConfigProperty(name = "workcell.sandbox.budget.per-user-bytes") Optional<Long> perUser, MeterRegistry registry) {
    this(ByteBudgetMetrics.register(ByteBudget.configured("sandbox-service", bytes, perUser), registry, "sandbox-service"));
  }

  public SandboxBudget(ByteBudget budget) {
    this.budget = budget;
  }

  public ByteBudget budget() {
    return budget;
  }

  static String user(SandboxRef ref) {
    return ref.isHome() ? "home:" + ref.homeUserId() : "owner:" + ref.ownerId();
  }

  /** Runs {@code work} holding {@code bytes} for {@code ref}'s user until it ends; refused at once when they do not fit. */
  public <T> Uni<T> whileHolding(SandboxRef ref, long bytes, Supplier<Uni<T>> work) {
    ByteBudget.Hold hold = budget.take(user(ref), bytes);
    try {
      return work.get().onTermination().invoke(hold::close);
    } catch (RuntimeException e) {
      hold.close();
      throw e;
    }
  }

  /** The reply, counted from its arrival until it is sent; refused (and dropped) when it does not fit. */
  public <T> Uni<Held<T>> reply(SandboxRef ref, Uni<T> reply, ToLongFunction<T> bytes) {
    return reply.map(value -> new Held<>(value, budget.take(user(ref), REPLY_COPIES * bytes.applyAsLong(value))));
  }

  public static long chars(String text) {
    return text == null ? 0 : text.length();
  }

  public static long bytes(byte[] data) {
    return data == null ? 0 : data.length;
  }
}
