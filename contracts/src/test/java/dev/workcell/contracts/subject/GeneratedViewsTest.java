package dev.workcell.contracts.subject;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The launcher's and the Helm chart's NATS permissions and docs/nats.md's subject tables are what the subject table
 * generates. Run with {@code -Dworkcell.regenerate=true} to rewrite them after changing a subject.
 */
class GeneratedViewsTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path PERMISSIONS = ROOT.resolve("bin/lib/nats-permissions.sh");
  private static final Path HELM = ROOT.resolve("helm/workcell/files/nats-permissions.yaml");
  private static final Path DOCS = ROOT.resolve("docs/nats.md");
  private static final boolean REGENERATE = Boolean.getBoolean("workcell.regenerate");

  @Test
  void launcherPermissionsAreTheGeneratedOnes() throws IOException {
    assertWholeFileGenerated(PERMISSIONS, SubjectTableViews.bash());
  }

  @Test
  void helmChartPermissionsAreTheGeneratedOnes() throws IOException {
    assertWholeFileGenerated(HELM, SubjectTableViews.helm());
  }

  private static void assertWholeFileGenerated(Path file, String generated) throws IOException {
    if (REGENERATE) {
      Files.writeString(file, generated);
    }
    assertThat(Files.readString(file))
        .as(ROOT.relativize(file) + " drifted from the subject table; regenerate: "
            + "./mvnw -B -pl contracts test -Dworkcell.regenerate=true")
        .isEqualTo(generated);
  }

  @Test
  void docsTablesAreTheGeneratedOnes() throws IOException {
    String docs = Files.readString(DOCS);
    int begin = docs.indexOf(SubjectTableViews.DOCS_BEGIN);
    int end = docs.indexOf(SubjectTableViews.DOCS_END);
    assertThat(begin).as("docs/nats.md has the generated-table markers").isNotNegative();
    assertThat(end).isGreaterThan(begin);
    String current = docs.substring(begin + SubjectTableViews.DOCS_BEGIN.length(), end);
    String generated = "\n" + SubjectTableViews.docs();
    if (REGENERATE && !current.equals(generated)) {
      Files.writeString(DOCS, docs.substring(0, begin + SubjectTableViews.DOCS_BEGIN.length()) + generated + docs.substring(end));
      current = generated;
    }
    assertThat(current)
        .as("docs/nats.md's subject tables drifted from the subject table; regenerate: "
            + "./mvnw -B -pl contracts test -Dworkcell.regenerate=true")
        .isEqualTo(generated);
  }

  @Test
  void noUserMayPublishToAnotherUsersInbox() {
    for (NatsPermissions.Grants grants : NatsPermissions.all()) {
      assertThat(grants.publish()).noneMatch(subject -> subject.startsWith("_INBOX"));
      assertThat(grants.subscribe()).filteredOn(subject -> subject.startsWith("_INBOX"))
          .containsExactly(grants.user().inboxPrefix() + ">");
    }
  }
}
