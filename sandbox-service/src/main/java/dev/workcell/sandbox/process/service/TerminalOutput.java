package dev.workcell.sandbox.process.service;

/**
 * Where a terminal's output goes. Called on the sandbox connection's reader thread, in order: must
 * not block. Each chunk must be returned with {@link TerminalSession#acknowledge(int)} once it has
 * been passed on (published, written to the socket): without that, celld stops after a window of
 * output and the program in the terminal blocks, which is the backpressure.
 */
@FunctionalInterface
public interface TerminalOutput {
  void output(byte[] data);
}
