package dev.workcell.sandbox.celld.client;

/** celld broke the frame protocol; the connection that saw it is closed and restarted on next use. */
public class CelldProtocolException extends RuntimeException {

  public CelldProtocolException(String message) {
    super(message);
  }

  public CelldProtocolException(String message, Throwable cause) {
    super(message, cause);
  }
}
