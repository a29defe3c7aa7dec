package dev.workcell.sandbox.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.task.EgressAllowlist;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The egress proxy's rules without a network: request heads, the allowlist's names, the ranges it never connects to. */
class EgressRulesTest {

  private static ProxyRequest parse(String head) throws ProxyRequest.Rejected {
    return ProxyRequest.parse(head.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Test
  void connectNamesHostAndPort() throws Exception {
    ProxyRequest request = parse("CONNECT pypi.org:443 HTTP/1.1\r\nHost: pypi.org:443\r\n\r\n");
    assertThat(request.tunnel()).isTrue();
    assertThat(request.host()).isEqualTo("pypi.org");
    assertThat(request.port()).isEqualTo(443);
    assertThat(request.forwardedHead()).isEmpty();
  }

  @Test
  void plainHttpIsRewrittenToOriginFormWithTheUrlsHost() throws Exception {
    ProxyRequest request = parse("GET http://example.org:8080/a/b?c=d HTTP/1.1\r\nHost: evil.example\r\n"
        + "Proxy-Authorization: Basic eA==\r\nProxy-Connection: keep-alive\r\nAccept: */*\r\n\r\n");
    assertThat(request.tunnel()).isFalse();
    assertThat(request.host()).isEqualTo("example.org");
    assertThat(request.port()).isEqualTo(8080);
    assertThat(new String(request.forwardedHead(), StandardCharsets.ISO_8859_1))
        .isEqualTo("GET /a/b?c=d HTTP/1.1\r\nHost: example.org:8080\r\nAccept: */*\r\n\r\n");
    assertThat(parse("GET http://example.org HTTP/1.0\r\n\r\n").port()).isEqualTo(80);
  }

  @Test
  void whatIsNotAProxyRequestIsRefused() {
    for (String head : List.of("GET / HTTP/1.1\r\nHost: x\r\n\r\n", "GET https://example.org/ HTTP/1.1\r\n\r\n",
        "CONNECT example.org HTTP/1.1\r\n\r\n", "CONNECT example.org:0 HTTP/1.1\r\n\r\n", "CONNECT example.org:99999 HTTP/1.1\r\n\r\n",
        "CONNECT [::1]:443 HTTP/1.1\r\n\r\n", "GET http://user@example.org/ HTTP/1.1\r\n\r\n", "HELLO\r\n\r\n",
        "GET http://example.org/ HTTP/2\r\n\r\n")) {
      assertThatThrownBy(() -> parse(head)).as(head).isInstanceOfSatisfying(ProxyRequest.Rejected.class,
          e -> assertThat(e.status).isEqualTo(400));
    }
  }

  @Test
  void allowlistEntriesAreNamesOrSuffixWildcards() {
    List<String> list = EgressAllowlist.validate(List.of("PyPI.org.", "*.github.com", "pypi.org"));
    assertThat(list).containsExactly("pypi.org", "*.github.com");
    assertThat(EgressAllowlist.allows(list, "pypi.org")).isTrue();
    assertThat(EgressAllowlist.allows(list, "PYPI.ORG")).isTrue();
    assertThat(EgressAllowlist.allows(list, "files.pypi.org")).isFalse();
    assertThat(EgressAllowlist.allows(list, "api.github.com")).isTrue();
    assertThat(EgressAllowlist.allows(list, "github.com")).isFalse();
    assertThat(EgressAllowlist.allows(list, "evilgithub.com")).isFalse();
    assertThat(EgressAllowlist.allows(list, "github.com.evil.org")).isFalse();
    assertThat(EgressAllowlist.allows(list, "140.82.112.3")).isFalse();
    assertThat(EgressAllowlist.allows(List.of(), "pypi.org")).isFalse();
    for (String bad : List.of("1.2.3.4", "*.com", "*", "a..b", "exa mple.org", "https://pypi.org", "pypi.org:443", "::1", "-a.org",
        "*.*.org", "x".repeat(64) + ".org")) {
      assertThatThrownBy(() -> EgressAllowlist.validate(List.of(bad))).as(bad).isInstanceOf(WorkcellException.class);
    }
    assertThatThrownBy(() -> EgressAllowlist.validate(java.util.Collections.nCopies(101, "a.org")))
        .isInstanceOf(WorkcellException.class);
    assertThat(EgressAllowlist.parse(" pypi.org , *.pythonhosted.org,")).containsExactly("pypi.org", "*.pythonhosted.org");
  }

  @Test
  void privateLoopbackLinkLocalAndReservedAddressesAreNeverDestinations() throws Exception {
    for (String address : List.of("10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "169.254.169.254",
        "127.0.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00::1", "ff02::1", "64:ff9b::a00:1",
        "::ffff:10.0.0.1")) {
      assertThat(Destinations.isPublic(InetAddress.getByName(address))).as(address).isFalse();
    }
    for (String address : List.of("1.1.1.1", "172.32.0.1", "100.128.0.1", "151.101.0.223", "2606:4700::1111")) {
      assertThat(Destinations.isPublic(InetAddress.getByName(address))).as(address).isTrue();
    }
  }

  @Test
  void theProxyRefusesANameThatResolvesPrivately() throws Exception {
    Destinations strict = new Destinations(Destinations.overrides("inside.test=10.0.0.7,outside.test=1.1.1.1"), false);
    assertThatThrownBy(() -> strict.resolve("inside.test")).isInstanceOf(Destinations.Refused.class)
        .hasMessageContaining("no public address");
    assertThat(strict.resolve("OUTSIDE.test").getHostAddress()).isEqualTo("1.1.1.1");
    assertThatThrownBy(() -> strict.resolve("localhost")).isInstanceOf(Destinations.Refused.class);
    Destinations lenient = new Destinations(Map.of("inside.test", InetAddress.getByName("10.0.0.7")), true);
    assertThat(lenient.resolve("inside.test").getHostAddress()).isEqualTo("10.0.0.7");
  }
}
