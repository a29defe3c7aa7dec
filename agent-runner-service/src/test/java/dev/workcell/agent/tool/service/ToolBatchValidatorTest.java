package dev.workcell.agent.tool.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workcell.contracts.task.ToolCall;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolBatchValidatorTest {

  private final ToolBatchValidator validator = new ToolBatchValidator(new ObjectMapper());

  @Test
  void validBatchIsReadyWithParsedArguments() {
    var verdict = validator.check(List.of(new ToolCall("1", "run_command", "{\"command\":\"ls\",\"timeout_seconds\":5}"),
        new ToolCall("2", "stop_preview", "")));
    assertThat(verdict.runnable()).isTrue();
    assertThat(verdict.invocations().getFirst().integer("timeout_seconds")).isEqualTo(5);
  }

  @Test
  void oneTruncatedCallSpoilsTheWholeBatch() {
    var verdict = validator.check(List.of(new ToolCall("1", "write_file", "{\"path\":\"a\",\"content\":\"b\"}"),
        new ToolCall("2", "run_command", "{\"command\": \"ls")));
    assertThat(verdict.runnable()).isFalse();
    assertThat(verdict.invocations()).isEmpty();
    assertThat(verdict.problems()).singleElement().asString().contains("run_command").contains("not a complete JSON object");
  }

  @Test
  void unknownToolMissingArgumentAndWrongTypeAreRefused() {
    assertThat(validator.check(List.of(new ToolCall("1", "format_disk", "{}"))).problems()).singleElement().asString()
        .contains("unknown tool");
    assertThat(validator.check(List.of(new ToolCall("1", "read_file", "{}"))).problems()).singleElement().asString()
        .contains("missing required argument 'path'");
    assertThat(validator.check(List.of(new ToolCall("1", "delete_file", "{\"path\":\"x\",\"recursive\":\"yes\"}"))).problems())
        .singleElement().asString().contains("must be a boolean");
    assertThat(validator.check(List.of(new ToolCall("1", "read_file", "[1,2]"))).runnable()).isFalse();
  }
}
