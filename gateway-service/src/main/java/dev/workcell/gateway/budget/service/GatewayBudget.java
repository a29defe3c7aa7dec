package dev.workcell.gateway.budget.service;

import dev.workcell.gateway.budget.config.BudgetSettings;
import dev.workcell.messaging.budget.ByteBudget;
import dev.workcell.messaging.budget.ByteBudgetMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The gateway's {@link ByteBudget}: every path that holds content in memory takes room for it first
 * (a request body before it is read, an answer as it arrives) and gives it back when the HTTP
 * answer has been sent. Users are keyed by API: {@code account:<id>} (Work) and {@code terminal:<id>}
 * (Open Terminal's X-User-Id).
 */
@ApplicationScoped
public class GatewayBudget {

  /** Copies of a request body the gateway holds at once: the read body, the decoded text, the NATS message. */
  public static final int BODY_COPIES = 3;
  /** Copies of an answer: the decoded reply and the serialized HTTP answer. */
  public static final int ANSWER_COPIES = 2;

  private final ByteBudget budget;

  @Inject
  public GatewayBudget(BudgetSettings settings, MeterRegistry registry) {
    this(ByteBudgetMetrics.register(ByteBudget.configured("the gateway", settings.bytes(), settings.perUserBytes()),
        registry, "the gateway"));
  }

  public GatewayBudget(ByteBudget budget) {
    this.budget = budget;
  }

  public ByteBudget budget() {
    return budget;
  }

  /** Room for {@code bytes}, given back by the caller; 429 {@code rate_limited} when it does not fit. */
  public ByteBudget.Hold take(String user, long bytes) {
    return budget.take(user, bytes);
  }

  /** Room for {@code bytes} until the HTTP answer of {@code context} has been sent (or the connection is gone). */
  public void holdUntilSent(RoutingContext context, String user, long bytes) {
    ByteBudget.Hold hold = budget.take(user, bytes);
    context.addEndHandler(ignored -> hold.close());
  }

  public static String account(String accountId) {
    return "account:" + accountId;
  }

  public static String terminalUser(String userId) {
    return "terminal:" + userId;
  }
}
