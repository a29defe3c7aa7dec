package dev.workcell.previewproxy.preview.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.preview.PreviewSubjects.IssueLink;
import dev.workcell.contracts.preview.PreviewSubjects.PreviewLink;
import dev.workcell.contracts.preview.PreviewToken;
import dev.workcell.previewproxy.preview.config.PreviewProxySettings;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Signs a link for a preview that runs now, with the generation task-service holds for it: the
 * same checks a proxied request passes, so a link is never issued for a stopped preview or for a
 * task of another owner (sandbox-service matches the owner against the sandbox's label).
 */
@ApplicationScoped
public class PreviewLinkIssuer {

  private final PreviewKey key;
  private final PreviewTargets targets;
  private final PreviewProxySettings settings;
  private final Clock clock = Clock.systemUTC();

  public PreviewLinkIssuer(PreviewKey key, PreviewTargets targets, PreviewProxySettings settings) {
    this.key = key;
    this.targets = targets;
    this.settings = settings;
  }

  public Uni<PreviewLink> issue(Actor actor, IssueLink request) {
    if (request == null || blank(request.taskId()) || blank(request.ownerId())) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "taskId and ownerId are required");
    }
    if (actor.role() == Actor.Role.USER && !actor.accountId().equals(request.ownerId())) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such preview");
    }
    if (!key.configured()) {
      throw new WorkcellException(ErrorCode.SERVICE_UNAVAILABLE, "preview links are not configured");
    }
    Optional<String> origin = settings.publicUrl().map(URI::toString).or(() -> Optional.ofNullable(request.origin()))
        .map(PreviewLinkIssuer::origin);
    return targets.current(request.taskId(), request.ownerId()).map(live -> {
      long expires = clock.instant().plus(settings.urlTtl()).getEpochSecond();
      String path = PreviewToken.PATH_PREFIX
          + key.sign(new PreviewToken(request.taskId(), request.ownerId(), live.generation(), expires)) + "/";
      return new PreviewLink(request.taskId(), live.generation(), path, origin.map(o -> o + path).orElse(null),
          Instant.ofEpochSecond(expires));
    });
  }

  /** {@code scheme://authority} of an absolute http(s) URL; anything else is refused. */
  private static String origin(String url) {
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme();
      if (!("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) || uri.getRawAuthority() == null) {
        throw new WorkcellException(ErrorCode.INVALID_REQUEST, "origin must be an absolute http(s) URL");
      }
      return scheme.toLowerCase() + "://" + uri.getRawAuthority();
    } catch (URISyntaxException e) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "origin must be an absolute http(s) URL");
    }
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
