package dev.workcell.messaging;

import dev.workcell.contracts.ServiceName;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Which service this process is; names its ping subject and its queue group. */
@ConfigMapping(prefix = "workcell.service")
public interface ServiceIdentity {

  /** One of the ids of {@link ServiceName}. */
  String name();

  /** Reported by ping. */
  @WithDefault("0.1.0")
  String version();

  /** False for tools (the launcher's CLI) that use the bus but are not a service. */
  @WithDefault("true")
  boolean answersPing();

  default ServiceName service() {
    return ServiceName.fromId(name());
  }
}
