package dev.workcell.contracts.preview;

import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.subject.NatsUser;
import dev.workcell.contracts.subject.Subject;
import java.time.Instant;

/**
 * preview-proxy's subjects. preview-proxy is the only issuer and the only verifier of signed preview
 * links, so the signing key lives in that one service: the gateway (the REST start) and agent-runner
 * (the {@code start_preview} tool) ask it for a link once the preview runs.
 */
public final class PreviewSubjects {

  private static final String P = Subjects.PREFIX + ".preview-proxy.";

  /**
   * A link for the preview of the task {@code taskId} owned by {@code ownerId}. {@code origin}
   * (optional, e.g. {@code https://work.example}) is the public origin the caller saw; preview-proxy's
   * own {@code WORKCELL_PREVIEW_PUBLIC_URL} wins over it.
   */
  public record IssueLink(String taskId, String ownerId, String origin) {}

  /**
   * A signed link for the preview's current {@code generation}: {@code path} on the gateway's public
   * origin, {@code url} the same with the origin (null when none is known). Works until
   * {@code expiresAt} or until the preview stops or restarts.
   */
  public record PreviewLink(String taskId, long generation, String path, String url, Instant expiresAt) {}

  /**
   * {@link IssueLink} → {@link PreviewLink}; a user only for its own tasks, admins and services for
   * any. Signed only while task-service holds the preview ready and sandbox-service finds it running
   * for that owner; otherwise {@code preview_revoked}.
   */
  public static final Subject<IssueLink, PreviewLink> LINK_ISSUE = Subject.of(P + "links.issue", IssueLink.class,
      PreviewLink.class, ServiceName.PREVIEW_PROXY, NatsUser.GATEWAY, NatsUser.AGENT_RUNNER);

  private PreviewSubjects() {}
}
