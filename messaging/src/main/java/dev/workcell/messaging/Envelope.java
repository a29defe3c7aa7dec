package dev.workcell.messaging;

import dev.workcell.contracts.Actor;

/** A decoded request as a handler sees it: the body, who acts, and the trace it belongs to. */
public record Envelope<T>(String subject, T body, Actor actor, String traceparent) {}
