package dev.workcell.contracts.subject;

import dev.workcell.contracts.ServiceName;

/**
 * The identities that connect to the stack's NATS server: one per service, the admin CLI (tokens,
 * pings) and the operators' read-only tooling. Each id is also its NATS user name.
 */
public enum NatsUser {
  GATEWAY(ServiceName.GATEWAY),
  TASK(ServiceName.TASK),
  AGENT_RUNNER(ServiceName.AGENT_RUNNER),
  SANDBOX(ServiceName.SANDBOX),
  PREVIEW_PROXY(ServiceName.PREVIEW_PROXY),
  TERMINAL(ServiceName.TERMINAL),
  SANDBOX_MIRROR(ServiceName.SANDBOX_MIRROR),
  /** {@code bin/workcell token} and {@code ping}: may create accounts and ping, nothing else. */
  CLI(null),
  /** Operators' NATS tooling: pings, stream and consumer info, run events; never a service subject. */
  OPERATOR(null);

  private final ServiceName service;

  NatsUser(ServiceName service) {
    this.service = service;
  }

  /** The NATS user name (the service id for services). */
  public String id() {
    return service != null ? service.id() : name().toLowerCase();
  }

  /** The service this user is, or null for the CLI and the operator. */
  public ServiceName service() {
    return service;
  }

  public static NatsUser of(ServiceName service) {
    for (NatsUser user : values()) {
      if (user.service == service) {
        return user;
      }
    }
    throw new IllegalArgumentException("no NATS user for " + service);
  }

  /** The prefix of this user's reply inboxes: no user can read another's replies. */
  public String inboxPrefix() {
    return inboxPrefix(id());
  }

  /** The reply-inbox prefix of the NATS user named {@code userName}, as its permissions allow it. */
  public static String inboxPrefix(String userName) {
    return "_INBOX." + userName + ".";
  }
}
