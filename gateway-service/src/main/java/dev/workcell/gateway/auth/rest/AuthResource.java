package dev.workcell.gateway.auth.rest;

import dev.workcell.contracts.account.Account;
import dev.workcell.gateway.auth.service.CurrentAccount;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;

@Path("/api/auth")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class AuthResource {

  private final CurrentAccount currentAccount;
  private final JsonWebToken token;

  public AuthResource(CurrentAccount currentAccount, JsonWebToken token) {
    this.currentAccount = currentAccount;
    this.token = token;
  }

  @GET
  @Path("/me")
  @Operation(operationId = "getCurrentAccount", summary = "The caller's account, read fresh")
  public Uni<Account> me() {
    return currentAccount.resolve(token);
  }
}
