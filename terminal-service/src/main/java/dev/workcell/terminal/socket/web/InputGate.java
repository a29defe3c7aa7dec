package dev.workcell.terminal.socket.web;

/**
 * Decides, before each input, whether it may reach the terminal now (the Work terminal re-checks
 * its account; Open Terminal's key was checked once, as upstream). Called on the socket's context.
 */
public interface InputGate {

  /** Every input goes at once. */
  InputGate OPEN = new InputGate() {
    @Override
    public boolean admit(Runnable ready) {
      return true;
    }

    @Override
    public void sent() {}

    @Override
    public boolean closed() {
      return false;
    }
  };

  /**
   * True when input may go now. Otherwise it waits: {@code ready} runs once (on any thread) when it
   * may be tried again; it never runs once access is revoked (the session is being closed).
   */
  boolean admit(Runnable ready);

  /** Input just went to the terminal. */
  void sent();

  /** Access was revoked: nothing more goes to the terminal (resizes included). */
  boolean closed();
}
