package dev.workcell.sandbox.egress;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.sun.net.httpserver.HttpServer;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxState;
import dev.workcell.sandbox.config.SandboxSettings;
import dev.workcell.sandbox.testing.SandboxClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An Open Terminal home under workcell.sandbox.home.egress-allowlist: on the egress network, only the listed name gets through. */
@QuarkusTest
@TestProfile(HomeEgressAllowlistTest.HomeAllowlist.class)
class HomeEgressAllowlistTest {

  public static class HomeAllowlist implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("workcell.sandbox.home.egress-allowlist", "Allowed.test");
    }
  }

  @Inject
  SandboxClient sandboxes;

  @Inject
  DockerClient docker;

  @Inject
  SandboxSettings settings;

  @Test
  void aHomeReachesOnlyTheNamesOfItsSetting() throws Exception {
    HttpServer fixture = HttpServer.create(new InetSocketAddress("0.0.0.0", 0), 16);
    fixture.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, 4);
      exchange.getResponseBody().write("home".getBytes(StandardCharsets.UTF_8));
      exchange.close();
    });
    fixture.start();
    int port = fixture.getAddress().getPort();
    SandboxRef home = sandboxes.newHome("egress-home");
    try {
      SandboxState state = sandboxes.ensure(home);
      assertThat(docker.inspectContainerCmd(state.containerId()).exec().getNetworkSettings().getNetworks().keySet())
          .containsExactly(EgressNetwork.name(settings));
      assertThat(sandboxes.run(home, "curl -sS -m 10 -p http://allowed.test:" + port + "/").stdout()).isEqualTo("home");
      assertThat(sandboxes.run(home, "curl -s -o /dev/null -w '%{http_code}' -m 10 http://denied.test:" + port + "/").stdout()).isEqualTo("403");
    } finally {
      sandboxes.deleteQuietly(home);
      fixture.stop(0);
    }
  }
}
