package dev.workcell.agent.provider.client;

import dev.workcell.agent.provider.RoundListener;

/** The text and reasoning of one round: kept for the result and forwarded live as they stream. */
final class StreamedText {

  private final RoundListener listener;
  private final StringBuilder text = new StringBuilder();
  private final StringBuilder reasoning = new StringBuilder();

  StreamedText(RoundListener listener) {
    this.listener = listener;
  }

  void text(String delta) {
    if (delta != null && !delta.isEmpty()) {
      text.append(delta);
      listener.text(delta);
    }
  }

  void reasoning(String delta) {
    if (delta != null && !delta.isEmpty()) {
      reasoning.append(delta);
      listener.reasoning(delta);
    }
  }

  String text() {
    return text.toString();
  }

  String reasoning() {
    return reasoning.toString();
  }
}
