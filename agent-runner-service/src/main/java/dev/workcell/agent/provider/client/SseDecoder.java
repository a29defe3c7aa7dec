package dev.workcell.agent.provider.client;

import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Turns server-sent-event lines into (event, data) pairs: data lines are joined, an empty line
 * dispatches, comments are skipped. Feed it lines; call {@link #finish()} when the stream ends.
 */
public final class SseDecoder implements Consumer<String> {

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
      data.append(stripSpace(line.substring(5)));
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
