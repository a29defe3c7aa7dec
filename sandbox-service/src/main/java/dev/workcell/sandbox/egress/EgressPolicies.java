package dev.workcell.sandbox.egress;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Network;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.task.EgressAllowlist;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxLabels;
import dev.workcell.sandbox.runtime.SandboxPolicy;
import dev.workcell.sandbox.task.client.TaskRuntimeSpecs;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which sandbox a proxy connection comes from and what its current policy lets it reach. The source
 * address identifies the sandbox: on the egress network (ICC off, no {@code CAP_NET_RAW}) it cannot
 * be forged. The policy is read live from task-service (a home's from settings), so a changed
 * allowlist applies to the next connection without recreating the sandbox; both answers are reused
 * for {@code workcell.sandbox.egress.policy-cache}.
 */
@ApplicationScoped
public class EgressPolicies {

  /** The decision on one destination; {@code sandbox} names the sandbox for the log (never a secret). */
  public record Verdict(boolean allowed, String sandbox, String reason) {}

  /** What a sandbox may reach: {@code allowlist} null = every public name; {@code problem} set = nothing. */
  private record Rules(String sandbox, List<String> allowlist, String problem, long expiresAt) {}

  private final DockerClient docker;
  private final TaskRuntimeSpecs tasks;
  private final String network;
  private final String instance;
  private final long ttlNanos;
  private final Map<String, Rules> bySource = new ConcurrentHashMap<>();

  public EgressPolicies(DockerClient docker, TaskRuntimeSpecs tasks, SandboxSettings settings) {
    this.docker = docker;
    this.tasks = tasks;
    this.network = EgressNetwork.name(settings);
    this.instance = settings.instance();
    this.ttlNanos = settings.egress().policyCache().toNanos();
  }

  /** Blocking (an engine call and a question to task-service when the cache has no answer). */
  public Verdict decide(String sourceAddress, String host) {
    Rules rules = rules(sourceAddress);
    if (rules.problem() != null) {
      return new Verdict(false, rules.sandbox(), rules.problem());
    }
    if (rules.allowlist() == null || EgressAllowlist.allows(rules.allowlist(), host)) {
      return new Verdict(true, rules.sandbox(), rules.allowlist() == null ? "no allowlist (open internet)" : "on the allowlist");
    }
    return new Verdict(false, rules.sandbox(), "not on this sandbox's egress allowlist");
  }

  /** Forgets what was read, so the next connection reads the policy again (a policy was just changed). */
  public void invalidate() {
    bySource.clear();
  }

  private Rules rules(String source) {
    long now = System.nanoTime();
    Rules cached = bySource.get(source);
    if (cached != null && now - cached.expiresAt() < 0) {
      return cached;
    }
    Rules fresh = read(source, now + ttlNanos);
    bySource.put(source, fresh);
    return fresh;
  }

  private Rules read(String source, long expiresAt) {
    SandboxKey key;
    try {
      key = sandboxAt(source);
    } catch (RuntimeException e) {
      return new Rules("?", null, "cannot tell which sandbox this is: " + e.getMessage(), expiresAt);
    }
    if (key == null) {
      return new Rules("?", null, "not a sandbox of this service on " + network, expiresAt);
    }
    String sandbox = key.home() ? "home-" + key.homeHash().substring(0, 12) : "task-" + key.taskId();
    SandboxPolicy policy;
    try {
      policy = key.home() ? tasks.policyForHome() : tasks.policyFor(new SandboxRef(key.taskId(), key.ownerId()));
    } catch (RuntimeException e) {
      return new Rules(sandbox, null, "its policy cannot be read: " + e.getMessage(), expiresAt);
    }
    if (policy.network() != null && !policy.network()) {
      return new Rules(sandbox, null, "its policy turned the network off", expiresAt);
    }
    return new Rules(sandbox, policy.egressAllowlist(), null, expiresAt);
  }

  /** The managed sandbox of this instance with {@code source} as its address on the egress network, or null. */
  private SandboxKey sandboxAt(String source) {
    Network inspected;
    try {
      inspected = docker.inspectNetworkCmd().withNetworkId(network).exec();
    } catch (NotFoundException e) {
      return null;
    }
    if (!network.equals(inspected.getName()) || inspected.getContainers() == null) {
      return null;
    }
    for (Map.Entry<String, Network.ContainerNetworkConfig> entry : inspected.getContainers().entrySet()) {
      String address = entry.getValue().getIpv4Address();
      if (address != null && address.replaceFirst("/.*", "").equals(source)) {
        var config = docker.inspectContainerCmd(entry.getKey()).exec().getConfig();
        Map<String, String> labels = config == null || config.getLabels() == null ? Map.of() : new HashMap<>(config.getLabels());
        if (!"true".equals(labels.get(SandboxLabels.MANAGED)) || !instance.equals(labels.get(SandboxLabels.INSTANCE))) {
          return null;
        }
        return SandboxKey.fromLabels(labels);
      }
    }
    return null;
  }
}
