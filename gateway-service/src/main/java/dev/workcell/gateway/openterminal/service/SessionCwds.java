package dev.workcell.gateway.openterminal.service;

import dev.workcell.gateway.openterminal.config.TerminalSettings;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each chat's working directory (home-relative), keyed by user and {@code X-Session-Id}. Held in this
 * gateway replica's memory with an idle TTL, like Open Terminal's own; a client that lands on another
 * replica starts at the home again.
 */
@ApplicationScoped
public class SessionCwds {

  private record Entry(String cwd, long touchedAtMs) {}

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final long ttlMs;
  private final int maxSessions;

  public SessionCwds(TerminalSettings settings) {
    this.ttlMs = settings.cwdTtl().toMillis();
    this.maxSessions = settings.cwdMaxSessions();
  }

  /** The session's directory, or the home ({@code ""}) without a session or after the TTL. */
  public String get(TerminalCaller caller) {
    if (caller.sessionId() == null) {
      return "";
    }
    String key = key(caller);
    long now = System.currentTimeMillis();
    Entry entry = entries.get(key);
    if (entry == null || now - entry.touchedAtMs() > ttlMs) {
      entries.remove(key);
      return "";
    }
    entries.put(key, new Entry(entry.cwd(), now));
    return entry.cwd();
  }

  public void set(TerminalCaller caller, String cwd) {
    if (caller.sessionId() == null) {
      return;
    }
    long now = System.currentTimeMillis();
    entries.put(key(caller), new Entry(cwd, now));
    if (entries.size() > maxSessions) {
      entries.entrySet().removeIf(e -> now - e.getValue().touchedAtMs() > ttlMs);
      while (entries.size() > maxSessions) {
        entries.entrySet().stream().min(Comparator.comparingLong(e -> e.getValue().touchedAtMs()))
            .ifPresent(oldest -> entries.remove(oldest.getKey()));
      }
    }
  }

  private static String key(TerminalCaller caller) {
    return caller.userId() + '\0' + caller.sessionId();
  }
}
