package dev.workcell.gateway.terminal.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.sandbox.FileBytes;
import dev.workcell.contracts.sandbox.ReadBytes;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.gateway.terminal.config.TerminalSettings;
import dev.workcell.messaging.NatsRequester;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.time.Duration;

/**
 * Requests to sandbox-service for a user's home sandbox. The gateway acts as itself (a service
 * actor may name a home); the user is the {@code homeUserId} of the sandbox ref in every body.
 */
@ApplicationScoped
public class TerminalSandbox {

  /** Bytes per FILES_READ_BYTES request: base64 of it stays under NATS's default 1 MB max payload. */
  static final int CHUNK = 512 * 1024;

  private static final Actor GATEWAY = Actor.service(ServiceName.GATEWAY);

  private final NatsRequester nats;
  private final Duration deadline;

  public TerminalSandbox(NatsRequester nats, TerminalSettings settings) {
    this.nats = nats;
    this.deadline = settings.sandboxDeadline();
  }

  public <T> Uni<T> ask(String subject, Object body, Class<T> replyType) {
    return nats.request(subject, body, replyType, GATEWAY, deadline);
  }

  /** For requests that wait on a process: the wait plus the usual margin (a sandbox may need starting). */
  public <T> Uni<T> ask(String subject, Object body, Class<T> replyType, long waitMs) {
    return nats.request(subject, body, replyType, GATEWAY, deadline.plusMillis(waitMs));
  }

  /** The whole file in chunks; {@code file_too_large} (413) beyond {@code maxBytes}. */
  public Uni<byte[]> readAll(TerminalCaller caller, String path, long maxBytes) {
    return chunk(caller, path, 0).chain(first -> {
      if (first.size() > maxBytes) {
        return Uni.createFrom().failure(new WorkcellException(ErrorCode.FILE_TOO_LARGE,
            "The file has " + first.size() + " bytes; at most " + maxBytes + " are served"));
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.max(first.size(), 0));
      return rest(caller, path, first, out, maxBytes).map(ignored -> out.toByteArray());
    });
  }

  private Uni<Void> rest(TerminalCaller caller, String path, FileBytes chunk, ByteArrayOutputStream out, long maxBytes) {
    byte[] data = chunk.data() == null ? new byte[0] : chunk.data();
    out.write(data, 0, data.length);
    if (out.size() > maxBytes) {
      return Uni.createFrom().failure(new WorkcellException(ErrorCode.FILE_TOO_LARGE, "The file grew beyond " + maxBytes + " bytes"));
    }
    // An empty chunk before eof would loop forever on a misbehaving answer; stop there instead.
    if (chunk.eof() || data.length == 0) {
      return Uni.createFrom().voidItem();
    }
    return chunk(caller, path, chunk.offset() + data.length).chain(next -> rest(caller, path, next, out, maxBytes));
  }

  private Uni<FileBytes> chunk(TerminalCaller caller, String path, long offset) {
    return ask(SandboxSubjects.FILES_READ_BYTES, new ReadBytes(caller.sandbox(), path, offset, CHUNK), FileBytes.class);
  }
}
