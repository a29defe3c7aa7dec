package dev.workcell.contracts.subject;

import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The generated views of {@link SubjectTable}: the NATS users' permissions as sourced by the launcher
 * ({@code bin/lib/nats-permissions.sh}) and as read by the Helm chart
 * ({@code helm/workcell/files/nats-permissions.yaml}), and the subject tables of {@code docs/nats.md}.
 * A contracts test fails when any of them differs from what is generated here, and rewrites them when run with
 * {@code -Dworkcell.regenerate=true}.
 */
public final class SubjectTableViews {

  public static final String DOCS_BEGIN = "<!-- generated: subject table (contracts SubjectTableViews); do not edit -->";
  public static final String DOCS_END = "<!-- end of generated subject table -->";

  private SubjectTableViews() {}

  /** Bash source with the per-user permission lists, in the nats.conf list syntax. */
  public static String bash() {
    StringBuilder out = new StringBuilder();
    out.append("# shellcheck shell=bash\n")
        .append("# Generated from the subject table in contracts (SubjectTableViews): do not edit; regenerate with\n")
        .append("#   ./mvnw -B -pl contracts test -Dworkcell.regenerate=true\n")
        .append("# Each NATS user may publish only what it calls and the pushes it publishes, and subscribe only to\n")
        .append("# what it serves, the pushes it listens to and its own reply inboxes.\n\n");
    out.append("declare -A WC_NATS_PUBLISH=(\n");
    for (NatsPermissions.Grants grants : NatsPermissions.all()) {
      out.append("  [").append(grants.user().id()).append("]='").append(quoted(grants.publish())).append("'\n");
    }
    out.append(")\n\ndeclare -A WC_NATS_SUBSCRIBE=(\n");
    for (NatsPermissions.Grants grants : NatsPermissions.all()) {
      out.append("  [").append(grants.user().id()).append("]='").append(quoted(grants.subscribe())).append("'\n");
    }
    out.append(")\n\n# Users that create and update the contract's JetStream streams at connect.\nWC_NATS_STREAM_MANAGERS=(");
    out.append(NatsPermissions.all().stream().filter(NatsPermissions.Grants::managesStreams)
        .map(grants -> grants.user().id()).collect(Collectors.joining(" ")));
    out.append(")\n");
    return out.toString();
  }

  /**
   * YAML for the Helm chart: per user its publish and subscribe lists and whether it manages the
   * streams. The chart's NATS config template writes the authorization block from it.
   */
  public static String helm() {
    StringBuilder out = new StringBuilder();
    out.append("# Generated from the subject table in contracts (SubjectTableViews): do not edit; regenerate with\n")
        .append("#   ./mvnw -B -pl contracts test -Dworkcell.regenerate=true\n")
        .append("# Read by templates/nats.yaml; passwords are not here (the chart's Secret holds them).\n")
        .append("users:\n");
    for (NatsPermissions.Grants grants : NatsPermissions.all()) {
      out.append("  ").append(grants.user().id()).append(":\n")
          .append("    managesStreams: ").append(grants.managesStreams()).append('\n')
          .append("    publish: [").append(quoted(grants.publish())).append("]\n")
          .append("    subscribe: [").append(quoted(grants.subscribe())).append("]\n");
    }
    return out.toString();
  }

  /** The markdown between {@link #DOCS_BEGIN} and {@link #DOCS_END} in docs/nats.md. */
  public static String docs() {
    StringBuilder out = new StringBuilder();
    out.append("### Request/reply\n\n| subject | request → reply | served by | may be called by |\n|---|---|---|---|\n");
    for (Subject<?, ?> subject : SubjectTable.requests()) {
      out.append("| `").append(subject.name()).append("` | `").append(simple(subject.request())).append("` → `")
          .append(simple(subject.reply())).append("` | ").append(subject.server().id()).append(" | ")
          .append(users(subject.callers())).append(" |\n");
    }
    out.append("\n### Pushed (no reply)\n\n| subject | message | stream | published by | listened to by |\n|---|---|---|---|---|\n");
    for (Push<?> push : SubjectTable.pushes()) {
      out.append("| `").append(push.pattern()).append("` | `").append(simple(push.message())).append("` | ")
          .append(push.stream() == null ? "core NATS" : "`" + push.stream() + "`").append(" | ")
          .append(users(push.publishers())).append(" | ").append(users(push.listeners())).append(" |\n");
    }
    return out.toString();
  }

  private static String quoted(List<String> subjects) {
    return subjects.stream().map(subject -> "\"" + subject + "\"").collect(Collectors.joining(", "));
  }

  private static String users(Collection<NatsUser> users) {
    if (users.isEmpty()) {
      return "nobody on the stack";
    }
    return users.stream().sorted().map(NatsUser::id).collect(Collectors.joining(", "));
  }

  private static String simple(Class<?> type) {
    String name = type.getName();
    return name.substring(name.lastIndexOf('.') + 1).replace('$', '.');
  }
}
