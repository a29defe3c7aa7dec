package dev.workcell.contracts.sandbox;

import java.util.List;

/**
 * Listening TCP ports inside one sandbox, ascending, as celld reads them from the sandbox's own
 * network namespace. {@code pid} and {@code process} are null when celld cannot tell (decision 0020).
 */
public record PortList(List<ListeningPort> ports) {

  public record ListeningPort(int port, Integer pid, String process) {}
}
