package dev.workcell.cli;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.account.Account;
import dev.workcell.contracts.account.EnsureAccount;
import dev.workcell.messaging.NatsRequester;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.util.KeyUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "token", description = "Create the account if missing and print a bearer token for it.")
public class TokenCommand implements Callable<Integer> {

  @Option(names = "--user", required = true, description = "Username.")
  String user;

  @Option(names = "--role", defaultValue = "user", description = "admin or user (only for a new account).")
  String role;

  @Option(names = "--ttl", defaultValue = "12h", converter = DurationConverter.class, description = "Lifetime.")
  Duration ttl;

  private final NatsRequester nats;
  private final BusConnection bus;
  private final String signingKey;
  private final String issuer;

  public TokenCommand(NatsRequester nats, BusConnection bus,
      @ConfigProperty(name = "workcell.cli.signing-key") String signingKey,
      @ConfigProperty(name = "workcell.cli.issuer") String issuer) {
    this.nats = nats;
    this.bus = bus;
    this.signingKey = signingKey;
    this.issuer = issuer;
  }

  @Override
  public Integer call() throws Exception {
    Actor.Role wanted = Actor.Role.fromWire(role);
    if (wanted == Actor.Role.SERVICE) {
      System.err.println("--role must be admin or user");
      return 2;
    }
    if (!bus.await(Duration.ofSeconds(5))) {
      System.err.println("nats: not reachable");
      return 2;
    }
    Account account = nats.request(Subjects.ACCOUNT_ENSURE, new EnsureAccount(user, wanted),
            new Actor("operator", Actor.Role.SERVICE))
        .await().atMost(Duration.ofSeconds(10));
    PrivateKey key = KeyUtils.decodePrivateKey(Files.readString(Path.of(signingKey)));
    String token = Jwt.issuer(issuer)
        .subject(account.id())
        .upn(account.username())
        .groups(account.role().wire())
        .expiresIn(ttl)
        .sign(key);
    System.out.println(token);
    return 0;
  }
}
