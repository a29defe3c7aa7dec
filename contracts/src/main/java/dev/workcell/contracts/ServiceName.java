package dev.workcell.contracts;

/** The services of the suite; each name is also the middle token of its NATS subjects. */
public enum ServiceName {
  GATEWAY("gateway"),
  TASK("task"),
  AGENT_RUNNER("agent-runner"),
  SANDBOX("sandbox"),
  PREVIEW_PROXY("preview-proxy"),
  TERMINAL("terminal"),
  SANDBOX_MIRROR("sandbox-mirror");

  private final String id;

  ServiceName(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  public static ServiceName fromId(String id) {
    for (ServiceName name : values()) {
      if (name.id.equals(id)) {
        return name;
      }
    }
    throw new IllegalArgumentException("unknown service: " + id);
  }
}
