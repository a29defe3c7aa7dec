package dev.workcell.messaging.budget;

/**
 * A handler's reply with its room in the budget: {@link dev.workcell.messaging.NatsResponder} sends
 * {@code value} and gives the room back once the reply has been encoded and handed to NATS.
 */
public record Held<T>(T value, ByteBudget.Hold hold) {}
