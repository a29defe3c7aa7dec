package dev.workcell.agent.provider;

/** Receives a round's text as it streams; called on the thread that reads the provider's stream. */
public interface RoundListener {

  void reasoning(String delta);

  void text(String delta);

  RoundListener NONE = new RoundListener() {
    @Override
    public void reasoning(String delta) {}

    @Override
    public void text(String delta) {}
  };
}
