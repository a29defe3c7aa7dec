package dev.workcell.previewproxy.preview.messaging;

import dev.workcell.contracts.preview.PreviewSubjects;
import dev.workcell.messaging.NatsResponder;
import dev.workcell.previewproxy.preview.service.PreviewLinkIssuer;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Serves {@code workcell.preview-proxy.links.issue} (the gateway's start, agent-runner's start_preview). */
@ApplicationScoped
public class LinkHandlers {

  private final NatsResponder responder;
  private final PreviewLinkIssuer issuer;

  public LinkHandlers(NatsResponder responder, PreviewLinkIssuer issuer) {
    this.responder = responder;
    this.issuer = issuer;
  }

  void register(@Observes StartupEvent event) {
    responder.serve(PreviewSubjects.LINK_ISSUE, r -> Uni.createFrom().deferred(() -> issuer.issue(r.actor(), r.body())));
  }
}
