package dev.workcell.sandbox.runtime;

import java.io.IOException;

/** A request did not fit in its sandbox's queue: nothing of it was written, the connection stays usable. */
public final class RequestQueueFull extends IOException {

  public RequestQueueFull(String message) {
    super(message);
  }
}
