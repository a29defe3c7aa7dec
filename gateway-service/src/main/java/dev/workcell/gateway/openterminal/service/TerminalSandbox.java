package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.sandbox.FileBytes;
import dev.workcell.contracts.sandbox.ReadBytes;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.gateway.budget.service.GatewayBudget;
import dev.workcell.gateway.openterminal.config.TerminalSettings;
import dev.workcell.messaging.BulkMessage;
import dev.workcell.messaging.NatsRequester;
import dev.workcell.messaging.budget.ByteBudget;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.LongFunction;

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
  private final GatewayBudget budget;
  private final Duration deadline;

  public TerminalSandbox(NatsRequester nats, TerminalSettings settings, GatewayBudget budget) {
    this.nats = nats;
    this.budget = budget;
    this.deadline = settings.sandboxDeadline();
  }

  public <Q, R> Uni<R> ask(Subject<Q, R> subject, Q body) {
    return nats.request(subject, body, GATEWAY, deadline);
  }

  public <Q, R> Uni<R> ask(Subject<Q, R> subject, BulkMessage<Q> body) {
    return nats.request(subject, body, GATEWAY, deadline);
  }

  /** For requests that wait on a process: the wait plus the usual margin (a sandbox may need starting). */
  public <Q, R> Uni<R> ask(Subject<Q, R> subject, Q body, long waitMs) {
    return nats.request(subject, body, GATEWAY, deadline.plusMillis(waitMs));
  }

  /**
   * A file handed out as it is read: its size (from the first chunk) and its bytes, chunk by chunk;
   * {@code hold} is its room in the budget, given back when the chunks end (or by a caller that never takes them).
   */
  public record FileStream(long size, Multi<byte[]> chunks, ByteBudget.Hold hold) {}

  /**
   * The file in chunks, each fetched when the previous one was taken, so a download holds about one
   * chunk in memory whatever the file's size; {@code file_too_large} (413) beyond {@code maxBytes}.
   * Exactly the size the first chunk reports is served: a file that grows meanwhile is cut there.
   * The chunk in flight (the reply and the bytes decoded from it) is counted in the gateway's budget
   * from the first chunk until the stream ends; a stream that does not fit is refused (429) before
   * its answer starts.
   */
  public Uni<FileStream> stream(TerminalCaller caller, String path, long maxBytes) {
    return chunk(caller, path, 0).map(first -> {
      if (first.size() > maxBytes) {
        throw new WorkcellException(ErrorCode.FILE_TOO_LARGE,
            "The file has " + first.size() + " bytes; at most " + maxBytes + " are served");
      }
      ByteBudget.Hold hold = budget.take(GatewayBudget.terminalUser(caller.userId()), 2L * Math.min(CHUNK, first.size()));
      return new FileStream(first.size(), from(first, first.size(), offset -> chunk(caller, path, offset)).onTermination().invoke(hold::close), hold);
    });
  }

  /** The whole file in memory, for answers that need it at once (an image for read_file), within the gateway's budget. */
  public Uni<byte[]> readAll(TerminalCaller caller, String path, long maxBytes) {
    return stream(caller, path, maxBytes).chain(file -> {
      // The buffer and the answer copied from it.
      ByteBudget.Hold hold;
      try {
        hold = budget.take(GatewayBudget.terminalUser(caller.userId()), 2 * file.size());
      } catch (RuntimeException refused) {
        file.hold().close();
        throw refused;
      }
      return file.chunks()
          .collect().in(() -> new ByteArrayOutputStream((int) file.size()), (out, data) -> out.write(data, 0, data.length))
          .map(ByteArrayOutputStream::toByteArray)
          .onTermination().invoke(hold::close);
    });
  }

  /**
   * One chunk after another, each fetched when the previous one was taken. Iterative on purpose: a
   * stream concatenated recursively (this chunk, then the rest) keeps every chunk it handed out
   * reachable until the download ends, and two 50 MB archives and a 25 MB view at once took the
   * gateway's 160 MB heap.
   */
  static Multi<byte[]> from(FileBytes first, long size, LongFunction<Uni<FileBytes>> fetch) {
    Reading reading = new Reading(first, size); // not in the state supplier: that would hold the first chunk to the end
    return Multi.createBy().repeating()
        .uni(() -> reading, next -> next.next(fetch))
        .whilst(piece -> !piece.last())
        .map(Piece::data);
  }

  private record Piece(byte[] data, boolean last) {}

  /** Where one download stands: the first chunk (fetched for the size) goes out first, then the next offsets. */
  private static final class Reading {
    private FileBytes first;
    private final long size;
    private long offset;

    Reading(FileBytes first, long size) {
      this.first = first;
      this.size = size;
    }

    Uni<Piece> next(LongFunction<Uni<FileBytes>> fetch) {
      FileBytes ready = first;
      first = null;
      return (ready != null ? Uni.createFrom().item(ready) : fetch.apply(offset)).map(this::piece);
    }

    private Piece piece(FileBytes chunk) {
      byte[] data = chunk.data() == null ? new byte[0] : chunk.data();
      if (chunk.offset() + data.length > size) {
        data = Arrays.copyOf(data, (int) Math.max(0, size - chunk.offset()));
      }
      offset = chunk.offset() + data.length;
      // An empty chunk before eof would loop forever on a misbehaving answer; stop there instead.
      return new Piece(data, chunk.eof() || data.length == 0 || offset >= size);
    }
  }

  private Uni<FileBytes> chunk(TerminalCaller caller, String path, long offset) {
    return ask(SandboxSubjects.FILES_READ_BYTES, new ReadBytes(caller.sandbox(), path, offset, CHUNK));
  }
}
