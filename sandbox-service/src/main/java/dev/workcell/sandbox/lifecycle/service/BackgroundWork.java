package dev.workcell.sandbox.lifecycle.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.sandbox.celld.client.CelldConnection;
import dev.workcell.sandbox.celld.client.CelldRequest;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/** Whether a sandbox still has background processes running: the idle stop must leave it alone then. */
@ApplicationScoped
public class BackgroundWork {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  public boolean hasRunningProcesses(CelldConnection celld) {
    try {
      JsonNode processes = celld.call(new CelldRequest.ProcList(), TIMEOUT).path("processes");
      if (!processes.isArray()) {
        return false;
      }
      for (JsonNode process : processes) {
        if ("running".equals(process.path("status").textValue())) {
          return true;
        }
      }
      return false;
    } catch (WorkcellException e) {
      Log.debugf("cannot list background processes, treating the sandbox as idle: %s", e.getMessage());
      return false;
    }
  }
}
