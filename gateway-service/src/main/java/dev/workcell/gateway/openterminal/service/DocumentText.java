package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * PDF, DOCX, XLSX, PPTX, ODT, ODS, ODP and EPUB to text, converted inside the user's own sandbox by a small python3
 * program (untrusted documents never reach a parser in the gateway). Program and path travel as
 * environment variables; the command line is constant, so no file name is ever interpolated.
 */
@ApplicationScoped
public class DocumentText {

  private static final String COMMAND = "exec python3 -c \"$WORKCELL_DOC_PROGRAM\"";
  private static final int TIMEOUT_SECONDS = 120;

  private final TerminalSandbox sandbox;
  private final String program;

  public DocumentText(TerminalSandbox sandbox) {
    this.sandbox = sandbox;
    try (InputStream in = DocumentText.class.getResourceAsStream("/open-terminal/document_text.py")) {
      this.program = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public record Text(String content, boolean truncated) {}

  public Uni<Text> extract(TerminalCaller caller, String path, String kind) {
    Map<String, String> env = Map.of("WORKCELL_DOC_PROGRAM", program, "WORKCELL_DOC_PATH", path, "WORKCELL_DOC_KIND", kind);
    RunCommand command = new RunCommand(caller.sandbox(), COMMAND, TIMEOUT_SECONDS, null, env, null);
    return sandbox.ask(SandboxSubjects.EXEC, command, TIMEOUT_SECONDS * 1000L).map(result -> {
      switch (result.exitCode()) {
        case 0 -> {
          return new Text(result.stdout() == null ? "" : result.stdout(), result.truncated());
        }
        case 5 -> throw new WorkcellException(ErrorCode.NOT_FOUND, "File not found");
        case 3, 127 -> throw new WorkcellException(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
            "This sandbox image has no tool to read " + kind + " files as text" + reason(result));
        default -> throw new WorkcellException(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
            "The file could not be read as a " + kind + " document" + reason(result));
      }
    });
  }

  private static String reason(CommandResult result) {
    String stderr = result.stderr() == null ? "" : result.stderr().strip();
    if (stderr.isEmpty()) {
      return "";
    }
    return ": " + (stderr.length() > 300 ? stderr.substring(stderr.length() - 300) : stderr);
  }
}
