package dev.workcell.agent.provider.client;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Turns server-sent-event lines into (event, data) pairs: data lines are joined, an empty line
 * dispatches, comments are skipped. Feed it lines; call {@link #finish()} when the stream ends.
 */
public final class SseDecoder implements Consumer<String> {

  /** Longest event, as a provider's longest line (an event of many lines is bounded the same). */
  static final int MAX_EVENT_CHARS = 8_388_608;

  private final BiConsumer<String, String> events;
  private final StringBuilder data = new StringBuilder();
  private String event;

  public SseDecoder(BiConsumer<String, String> events) {
    this.events = events;
  }

  @Override
  public void accept(String line) {
    if (line.isEmpty()) {
      dispatch();
    } else if (line.startsWith(":")) {
      return;
    } else if (line.startsWith("data:")) {
      if (!data.isEmpty()) {
        data.append('\n');
      }
      String value = stripSpace(line.substring(5));
      if (data.length() + value.length() > MAX_EVENT_CHARS) {
        throw new WorkcellException(ErrorCode.PROVIDER_ERROR, "the provider sent an event longer than " + MAX_EVENT_CHARS + " characters");
      }
      data.append(value);
    } else if (line.startsWith("event:")) {
      event = stripSpace(line.substring(6));
    }
  }

  public void finish() {
    dispatch();
  }

  private void dispatch() {
    if (!data.isEmpty()) {
      events.accept(event, data.toString());
    }
    data.setLength(0);
    event = null;
  }

  private static String stripSpace(String value) {
    return value.startsWith(" ") ? value.substring(1) : value;
  }
}
