package dev.workcell.sandbox.git.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.GitStatus;
import dev.workcell.contracts.sandbox.GitStatus.GitFile;
import org.junit.jupiter.api.Test;

/** git status output is sandbox output: parsed strictly, refused when it does not fit. */
class PorcelainV2Test {

  private static final String OID = "0123456789abcdef0123456789abcdef01234567";

  @Test
  void readsHeadersAndEveryRecordKind() {
    String out = String.join("\0",
        "# branch.oid " + OID, "# branch.head feature", "# branch.upstream origin/feature", "# branch.ab +2 -1",
        "1 .M N... 100644 100644 100644 " + OID + " " + OID + " with space.txt",
        "2 R. N... 100644 100644 100644 " + OID + " " + OID + " R100 new.txt", "old.txt",
        "u UU N... 100644 100644 100644 100644 " + OID + " " + OID + " " + OID + " conflict.txt",
        "? fresh.txt") + "\0";
    GitStatus status = PorcelainV2.parse(out);
    assertThat(status.branch()).isEqualTo("feature");
    assertThat(status.head()).isEqualTo(OID);
    assertThat(status.ahead()).isEqualTo(2);
    assertThat(status.behind()).isEqualTo(1);
    assertThat(status.files()).containsExactly(
        new GitFile("with space.txt", ".", "M", null),
        new GitFile("new.txt", "R", ".", "old.txt"),
        new GitFile("conflict.txt", "U", "U", null),
        new GitFile("fresh.txt", "?", "?", null));
    assertThat(PorcelainV2.parse("# branch.oid (initial)\0# branch.head (detached)\0").branch()).isNull();
  }

  @Test
  void refusesWhatDoesNotFit() {
    for (String bad : new String[] {
        "1 .M N... 100644\0", "? fresh.txt", "x something\0", "1 ZZ N... 100644 100644 100644 a b path\0",
        "2 R. N... 100644 100644 100644 " + OID + " " + OID + " R100 new.txt\0", "# branch.ab 2 1\0", "# branch.oid nothex\0"}) {
      assertThatThrownBy(() -> PorcelainV2.parse(bad)).as(bad.replace('\0', '|'))
          .isInstanceOfSatisfying(WorkcellException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL));
    }
  }
}
