package dev.workcell.cli;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.ping.Ping;
import dev.workcell.contracts.ping.Pong;
import dev.workcell.messaging.NatsRequester;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "ping", description = "Ping services over NATS; exits 1 unless every one answers.")
public class PingCommand implements Callable<Integer> {

  @Option(names = "--service", description = "Only these services (ids), default all.", split = ",")
  List<String> services = new ArrayList<>();

  @Option(names = "--timeout", description = "Deadline per ping (ISO-8601 or e.g. 2s).", defaultValue = "PT2S",
      converter = DurationConverter.class)
  Duration timeout;

  private final NatsRequester nats;
  private final BusConnection bus;

  public PingCommand(NatsRequester nats, BusConnection bus) {
    this.nats = nats;
    this.bus = bus;
  }

  @Override
  public Integer call() throws InterruptedException {
    if (!bus.await(timeout)) {
      System.err.println("nats: not reachable");
      return 2;
    }
    List<ServiceName> targets = services.isEmpty() ? List.of(ServiceName.values())
        : services.stream().map(ServiceName::fromId).toList();
    Actor operator = new Actor("operator", Actor.Role.SERVICE);
    int failures = 0;
    for (ServiceName service : targets) {
      long start = System.nanoTime();
      try {
        Pong pong = nats.request(Subjects.ping(service), new Ping("cli"), operator, timeout)
            .await().atMost(timeout.plusSeconds(1));
        System.out.printf("%-15s ok    %6.2f ms  instance=%s uptime=%ds%n", service.id(),
            (System.nanoTime() - start) / 1e6, pong.instanceId(), pong.uptimeMs() / 1000);
      } catch (RuntimeException e) {
        failures++;
        System.out.printf("%-15s FAIL  %s%n", service.id(), e.getMessage());
      }
    }
    return failures == 0 ? 0 : 1;
  }
}
