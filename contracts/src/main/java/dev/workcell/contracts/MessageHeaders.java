package dev.workcell.contracts;

/** Header names carried by every NATS message of the suite. */
public final class MessageHeaders {

  /** The acting account's id; every service authorises from it again. */
  public static final String ACCOUNT_ID = "Workcell-Account-Id";

  /** The acting account's role: admin, user or service. */
  public static final String ACCOUNT_ROLE = "Workcell-Account-Role";

  /** W3C trace context, so one request can be followed across services. */
  public static final String TRACEPARENT = "traceparent";

  /** Present on a reply when the handler failed; the value is the error code, the body an ErrorReply. */
  public static final String ERROR = "Workcell-Error";

  /**
   * On a request: the caller asks for an accept, an empty first reply that names the instance
   * handling it, so a caller can tell a responder that died from one that is slow (decision 0024).
   */
  public static final String ACCEPT = "Workcell-Accept";

  /** On an accept: the liveness subject of the instance that took the request ({@code Subjects.alive}). */
  public static final String ACCEPTED = "Workcell-Accepted";

  private MessageHeaders() {}
}
