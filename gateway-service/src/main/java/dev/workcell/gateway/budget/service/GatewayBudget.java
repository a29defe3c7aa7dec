package dev.workcell.gateway.budget.service;

import dev.workcell.gateway.budget.config.BudgetSettings;
import dev.workcell.messaging.budget.ByteBudget;
import io.micrometer.core.instrument.Gauge;
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
    this(budget(settings));
    Gauge.builder("workcell.budget.held", budget, ByteBudget::held).baseUnit("bytes")
        .description("content bytes the gateway holds in memory").register(registry);
    Gauge.builder("workcell.budget.available", budget, ByteBudget::available).baseUnit("bytes")
        .description("content bytes the gateway may still take").register(registry);
    Gauge.builder("workcell.budget.refused", budget, ByteBudget::refused)
        .description("takes refused with 429 since start").register(registry);
  }

  public GatewayBudget(ByteBudget budget) {
    this.budget = budget;
  }

  private static ByteBudget budget(BudgetSettings settings) {
    long limit = settings.bytes().orElse(Runtime.getRuntime().maxMemory() / 4);
    return new ByteBudget("the gateway", limit, settings.perUserBytes().orElse(limit / 4));
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
