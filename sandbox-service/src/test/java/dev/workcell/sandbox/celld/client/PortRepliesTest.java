package dev.workcell.sandbox.celld.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.PortList.ListeningPort;
import org.junit.jupiter.api.Test;

/** celld's ports answer is read strictly: a sandbox cannot make sandbox-service pass on nonsense. */
class PortRepliesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void portsAreReadWithOptionalOwners() throws Exception {
    var ports = ToolReplies.ports(JSON.readTree("{\"ports\":[{\"port\":3000,\"pid\":null,\"process\":null},"
        + "{\"port\":8080,\"pid\":42,\"process\":\"node\"}]}"));
    assertThat(ports.ports()).containsExactly(new ListeningPort(3000, null, null), new ListeningPort(8080, 42, "node"));
  }

  @Test
  void aPortOutOfRangeOrAMissingListIsRefused() {
    for (String reply : new String[] {"{\"ports\":[{\"port\":0}]}", "{\"ports\":[{\"port\":65536}]}", "{}",
        "{\"ports\":[3000]}", "{\"ports\":[{\"port\":3000,\"process\":7}]}"}) {
      assertThatThrownBy(() -> ToolReplies.ports(JSON.readTree(reply))).as(reply).isInstanceOf(WorkcellException.class);
    }
  }
}
