package dev.workcell.gateway.openterminal;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.CommandResult;
import dev.workcell.contracts.sandbox.DeleteFile;
import dev.workcell.contracts.sandbox.FileBytes;
import dev.workcell.contracts.sandbox.FileChanged;
import dev.workcell.contracts.sandbox.FileContent;
import dev.workcell.contracts.sandbox.FileEntry;
import dev.workcell.contracts.sandbox.FileList;
import dev.workcell.contracts.sandbox.FileWritten;
import dev.workcell.contracts.sandbox.GlobFiles;
import dev.workcell.contracts.sandbox.GlobResult;
import dev.workcell.contracts.sandbox.GrepFiles;
import dev.workcell.contracts.sandbox.GrepResult;
import dev.workcell.contracts.sandbox.KillProcess;
import dev.workcell.contracts.sandbox.ListFiles;
import dev.workcell.contracts.sandbox.ListPorts;
import dev.workcell.contracts.sandbox.ListProcesses;
import dev.workcell.contracts.sandbox.PortList;
import dev.workcell.contracts.sandbox.MakeDirectory;
import dev.workcell.contracts.sandbox.MoveFile;
import dev.workcell.contracts.sandbox.PollProcess;
import dev.workcell.contracts.sandbox.ProcessInput;
import dev.workcell.contracts.sandbox.ProcessList;
import dev.workcell.contracts.sandbox.ProcessView;
import dev.workcell.contracts.sandbox.ProcessView.OutputEntry;
import dev.workcell.contracts.sandbox.ReadBytes;
import dev.workcell.contracts.sandbox.ReadFile;
import dev.workcell.contracts.sandbox.RunCommand;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.contracts.sandbox.SearchHit;
import dev.workcell.contracts.sandbox.StartProcess;
import dev.workcell.contracts.sandbox.StatFile;
import dev.workcell.contracts.sandbox.WriteBytes;
import dev.workcell.contracts.sandbox.WriteFile;
import dev.workcell.contracts.sandbox.WritePart;
import dev.workcell.contracts.subject.Subject;
import dev.workcell.messaging.NatsResponder;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * sandbox-service's home sandboxes played in memory: one file tree and one process table per
 * {@code homeUserId}, refusing what celld refuses (absolute paths, {@code ..}). Every request body
 * is recorded, so tests assert what the gateway actually sent. Only the gateway may name a home.
 */
@ApplicationScoped
public class HomeSandboxFixture {

  public record Seen(Subject<?, ?> subject, Actor actor, Object body) {}

  public static final List<Seen> SEEN = new CopyOnWriteArrayList<>();
  /** user → path → bytes; a directory is a key ending in "/". */
  public static final Map<String, Map<String, byte[]>> FILES = new ConcurrentHashMap<>();
  /** user → process id → process. */
  public static final Map<String, Map<String, Proc>> PROCESSES = new ConcurrentHashMap<>();
  public static volatile CommandResult nextExec = new CommandResult(0, "", "", false, 1, false);

  public static final class Proc {
    final String id = UUID.randomUUID().toString().substring(0, 8);
    final String command;
    volatile String status = "running";
    volatile Integer exitCode;
    final List<OutputEntry> output = new CopyOnWriteArrayList<>();
    final StringBuilder stdin = new StringBuilder();

    Proc(String command) {
      this.command = command;
    }

    ProcessView view(long offset, Integer tail) {
      List<OutputEntry> from = output.subList((int) Math.min(offset, output.size()), output.size());
      boolean truncated = false;
      if (tail != null && from.size() > tail) {
        from = from.subList(from.size() - tail, from.size());
        truncated = true;
      }
      return new ProcessView(id, command, status, exitCode, List.copyOf(from), output.size(), truncated, 0, null);
    }
  }

  public static void reset() {
    SEEN.clear();
    FILES.clear();
    PROCESSES.clear();
  }

  public static void put(String user, String path, String text) {
    files(user).put(path, text.getBytes(StandardCharsets.UTF_8));
  }

  public static void put(String user, String path, byte[] data) {
    files(user).put(path, data);
  }

  public static <T> List<T> seen(Subject<T, ?> subject, Class<T> type) {
    return SEEN.stream().filter(s -> s.subject().equals(subject)).map(s -> type.cast(s.body())).toList();
  }

  /** FixtureServices serves FILES_LIST/READ/WRITE/WRITE_PART for tasks too; it hands home requests here. */
  public static <R> R answerHome(Subject<?, R> subject, Actor actor, Object body) {
    Object answer;
    if (subject.equals(SandboxSubjects.FILES_LIST)) {
      answer = list(actor, (ListFiles) body);
    } else if (subject.equals(SandboxSubjects.FILES_READ)) {
      answer = read(actor, (ReadFile) body);
    } else if (subject.equals(SandboxSubjects.FILES_WRITE)) {
      answer = write(actor, (WriteFile) body);
    } else if (subject.equals(SandboxSubjects.FILES_WRITE_PART)) {
      answer = writePart(actor, (WritePart) body);
    } else {
      throw new WorkcellException(ErrorCode.NOT_IMPLEMENTED, subject.name());
    }
    return subject.reply().cast(answer);
  }

  void register(@Observes StartupEvent event, NatsResponder responder) {
    serve(responder, SandboxSubjects.FILES_STAT, StatFile::sandbox, (actor, body) -> stat(body.sandbox(), body.path()));
    serve(responder, SandboxSubjects.FILES_READ_BYTES, ReadBytes::sandbox, HomeSandboxFixture::readBytes);
    serve(responder, SandboxSubjects.FILES_WRITE_BYTES, WriteBytes::sandbox, (actor, body) -> {
      files(body.sandbox().homeUserId()).put(check(body.path()), body.data());
      return new FileWritten(body.path(), "v", body.data().length);
    });
    serve(responder, SandboxSubjects.FILES_MKDIR, MakeDirectory::sandbox, (actor, body) -> {
      files(body.sandbox().homeUserId()).put(entry(body.path()) + "/", new byte[0]);
      return new FileChanged(body.path(), true);
    });
    serve(responder, SandboxSubjects.FILES_DELETE, DeleteFile::sandbox, (actor, body) -> {
      String path = check(body.path());
      boolean removed = files(body.sandbox().homeUserId()).keySet().removeIf(k -> k.equals(path) || k.startsWith(path + "/"));
      if (!removed) {
        throw new WorkcellException(ErrorCode.NOT_FOUND, "no such file");
      }
      return new FileChanged(path, true);
    });
    serve(responder, SandboxSubjects.FILES_MOVE, MoveFile::sandbox, (actor, body) -> {
      Map<String, byte[]> files = files(body.sandbox().homeUserId());
      String to = entry(body.to());
      if (to.contains("/") && !files.containsKey(to.substring(0, to.lastIndexOf('/') + 1))) {
        throw new WorkcellException(ErrorCode.NOT_FOUND, "no such directory"); // celld: the target's parent is missing
      }
      byte[] data = Optional.ofNullable(files.remove(entry(body.from()))).orElseThrow(() -> new WorkcellException(ErrorCode.NOT_FOUND, "no such file"));
      files.put(to, data);
      return new FileChanged(body.to(), true);
    });
    serve(responder, SandboxSubjects.FILES_GREP, GrepFiles::sandbox, (actor, body) -> {
      List<SearchHit> hits = new ArrayList<>();
      files(body.sandbox().homeUserId()).forEach((path, data) -> {
        if (!path.endsWith("/") && beneath(check(body.path()), path)) {
          String[] lines = new String(data, StandardCharsets.UTF_8).split("\n");
          for (int i = 0; i < lines.length; i++) {
            if (lines[i].contains(body.query())) {
              hits.add(new SearchHit(path, i + 1, lines[i]));
            }
          }
        }
      });
      return new GrepResult(hits, false);
    });
    serve(responder, SandboxSubjects.FILES_GLOB, GlobFiles::sandbox, (actor, body) -> {
      String dir = check(body.path());
      if (!dir.isEmpty() && files(body.sandbox().homeUserId()).containsKey(dir)) {
        throw new WorkcellException(ErrorCode.NOT_A_DIRECTORY, dir + ": not a directory");
      }
      Pattern pattern = segmentGlob(body.pattern());
      String type = body.type() == null ? "any" : body.type();
      List<GlobResult.GlobMatch> matches = new ArrayList<>();
      files(body.sandbox().homeUserId()).forEach((path, data) -> {
        boolean isDir = path.endsWith("/");
        String bare = isDir ? path.substring(0, path.length() - 1) : path;
        String relative = dir.isEmpty() ? bare : bare.substring(Math.min(bare.length(), dir.length() + 1));
        boolean wanted = type.equals("any") || type.equals(isDir ? "directory" : "file");
        if (wanted && !bare.equals(dir) && beneath(dir, bare) && pattern.matcher(relative).matches()) {
          matches.add(new GlobResult.GlobMatch(bare, isDir ? "dir" : "file", data.length, 1_700_000_000_000L));
        }
      });
      matches.sort((a, b) -> a.path().compareTo(b.path()));
      return new GlobResult(matches, false);
    });
    serve(responder, SandboxSubjects.EXEC, RunCommand::sandbox, (actor, body) -> nextExec);
    serve(responder, SandboxSubjects.PROCESS_START, StartProcess::sandbox, (actor, body) -> {
      if (body.cwd() != null) {
        check(body.cwd());
      }
      Proc proc = new Proc(body.command());
      if (body.command().startsWith("echo ")) {
        proc.output.add(new OutputEntry("stdout", body.command().substring(5) + "\n"));
        proc.status = "done";
        proc.exitCode = 0;
      }
      processes(body.sandbox().homeUserId()).put(proc.id, proc);
      return proc.view(0, body.tail());
    });
    serve(responder, SandboxSubjects.PROCESS_STATUS, PollProcess::sandbox, (actor, body) ->
        proc(body.sandbox(), body.processId()).view(body.offset(), body.tail()));
    serve(responder, SandboxSubjects.PROCESS_INPUT, ProcessInput::sandbox, (actor, body) -> {
      Proc proc = proc(body.sandbox(), body.processId());
      if (!proc.status.equals("running")) {
        throw new WorkcellException(ErrorCode.PROCESS_EXITED, null);
      }
      proc.stdin.append(body.input());
      proc.output.add(new OutputEntry("stdout", body.input()));
      return proc.view(0, null);
    });
    serve(responder, SandboxSubjects.PROCESS_KILL, KillProcess::sandbox, (actor, body) -> {
      Proc proc = proc(body.sandbox(), body.processId());
      proc.status = "killed";
      proc.exitCode = body.force() ? -9 : -15;
      return proc.view(0, null);
    });
    serve(responder, SandboxSubjects.PROCESS_LIST, ListProcesses::sandbox, (actor, body) ->
        new ProcessList(processes(body.sandbox().homeUserId()).values().stream().map(p -> p.view(0, 0)).toList()));
    // Each home's listening ports: port 3000 + the user's name length, so two users' answers differ.
    serve(responder, SandboxSubjects.PORTS_LIST, ListPorts::sandbox, (actor, body) -> new PortList(List.of(
        new PortList.ListeningPort(3000 + body.sandbox().homeUserId().length(), null, null))));
  }

  private interface Handler<T, R> {
    R handle(Actor actor, T body);
  }

  private static <T, R> void serve(NatsResponder responder, Subject<T, R> subject, Function<T, SandboxRef> ref,
      Handler<T, ? extends R> handler) {
    responder.serve(subject, request -> Uni.createFrom().item(() -> {
      home(subject, request.actor(), request.body(), ref.apply(request.body()));
      return handler.handle(request.actor(), request.body());
    }));
  }

  private static void home(Subject<?, ?> subject, Actor actor, Object body, SandboxRef ref) {
    SEEN.add(new Seen(subject, actor, body));
    if (ref == null || !ref.isHome() || actor.role() != Actor.Role.SERVICE) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such sandbox");
    }
    if (dev.workcell.gateway.fixture.FixtureServices.FULL_HOST.equals(ref.homeUserId())) {
      // This user's home cannot start: sandbox-service's memory budget is taken by busy sandboxes.
      throw new WorkcellException(ErrorCode.RUNTIME_CAPACITY, "the memory budget is in use by busy sandboxes");
    }
  }

  private static FileList list(Actor actor, ListFiles body) {
    home(SandboxSubjects.FILES_LIST, actor, body, body.sandbox());
    String dir = check(body.path());
    if (files(body.sandbox().homeUserId()).containsKey(dir)) {
      throw new WorkcellException(ErrorCode.NOT_A_DIRECTORY, dir + ": not a directory");
    }
    if (!dir.isEmpty() && !files(body.sandbox().homeUserId()).containsKey(dir + "/")) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such directory");
    }
    List<FileEntry> entries = new ArrayList<>();
    files(body.sandbox().homeUserId()).forEach((path, data) -> {
      String bare = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
      String parent = bare.contains("/") ? bare.substring(0, bare.lastIndexOf('/')) : "";
      if (parent.equals(dir) && !bare.isEmpty()) {
        entries.add(new FileEntry(bare.substring(bare.lastIndexOf('/') + 1), path.endsWith("/") ? "dir" : "file", data.length,
            1_700_000_000_000L, 0644, null));
      }
    });
    return new FileList(dir, entries, false);
  }

  private static FileContent read(Actor actor, ReadFile body) {
    home(SandboxSubjects.FILES_READ, actor, body, body.sandbox());
    byte[] data = bytes(body.sandbox(), body.path());
    if (data.length > 2_000_000) {
      throw new WorkcellException(ErrorCode.FILE_TOO_LARGE, "exceeds 2000000 bytes");
    }
    String text = new String(data, StandardCharsets.UTF_8);
    if (!Arrays.equals(text.getBytes(StandardCharsets.UTF_8), data)) {
      throw new WorkcellException(ErrorCode.NOT_UTF8, null);
    }
    return new FileContent(body.path(), text, data.length, Integer.toString(Arrays.hashCode(data)));
  }

  /** Parts gather under their upload id (as in celld's hidden part file) until the last one. */
  private static FileWritten writePart(Actor actor, WritePart body) {
    home(SandboxSubjects.FILES_WRITE_PART, actor, body, body.sandbox());
    Map<String, byte[]> files = files(body.sandbox().homeUserId());
    String part = ".part-" + body.upload();
    byte[] held = body.offset() == 0 ? new byte[0] : files.remove(part);
    if (held == null || body.offset() != held.length) {
      throw new WorkcellException(ErrorCode.CONFLICT, "offset " + body.offset());
    }
    byte[] now = Arrays.copyOf(held, held.length + body.data().length);
    System.arraycopy(body.data(), 0, now, held.length, body.data().length);
    files.put(body.last() ? check(body.path()) : part, now);
    return new FileWritten(body.path(), body.last() ? "v" : null, now.length);
  }

  private static FileWritten write(Actor actor, WriteFile body) {
    home(SandboxSubjects.FILES_WRITE, actor, body, body.sandbox());
    Map<String, byte[]> files = files(body.sandbox().homeUserId());
    String path = check(body.path());
    if (body.expectedVersion() != null) {
      byte[] current = files.get(path);
      if (current == null || !Integer.toString(Arrays.hashCode(current)).equals(body.expectedVersion())) {
        throw new WorkcellException(ErrorCode.CONFLICT, null);
      }
    }
    byte[] data = body.content().getBytes(StandardCharsets.UTF_8);
    files.put(path, data);
    return new FileWritten(path, Integer.toString(Arrays.hashCode(data)), data.length);
  }

  private static FileEntry stat(SandboxRef ref, String path) {
    Map<String, byte[]> files = files(ref.homeUserId());
    String clean = entry(path);
    if (files.containsKey(clean + "/")) {
      return new FileEntry(clean, "dir", 0, 0, 0755, "v");
    }
    byte[] data = files.get(clean);
    if (data == null) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such file");
    }
    return new FileEntry(clean, "file", data.length, 0, 0644, "v");
  }

  private static FileBytes readBytes(Actor actor, ReadBytes body) {
    byte[] data = bytes(body.sandbox(), body.path());
    int offset = (int) Math.min(body.offset() == null ? 0 : body.offset(), data.length);
    int limit = Math.min(body.limit() == null ? 2_000_000 : body.limit(), data.length - offset);
    return new FileBytes(body.path(), Arrays.copyOfRange(data, offset, offset + limit), offset, data.length,
        offset + limit == data.length, "v");
  }

  private static byte[] bytes(SandboxRef ref, String path) {
    String clean = entry(path);
    if (files(ref.homeUserId()).containsKey(clean + "/")) {
      throw new WorkcellException(ErrorCode.IS_A_DIRECTORY, clean + ": is a directory");
    }
    byte[] data = files(ref.homeUserId()).get(clean);
    if (data == null) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such file");
    }
    return data;
  }

  private static Proc proc(SandboxRef ref, String id) {
    Proc proc = processes(ref.homeUserId()).get(id);
    if (proc == null) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such process");
    }
    return proc;
  }

  /** What celld would refuse; a gateway that sends it has a bug the tests should see. */
  private static String check(String path) {
    String value = path == null ? "" : path;
    if (value.startsWith("/") || Arrays.asList(value.split("/")).contains("..") || value.indexOf('\0') >= 0) {
      throw new WorkcellException(ErrorCode.PATH_ESCAPE, "fixture: the gateway sent " + value);
    }
    return value;
  }

  /** As sandbox-service's WorkspacePath.entry: the home itself is not an entry. */
  private static String entry(String path) {
    String clean = check(path);
    if (clean.isEmpty()) {
      throw new WorkcellException(ErrorCode.INVALID_PATH, "a path below the workspace root is required");
    }
    return clean;
  }

  /** celld's glob: {@code **} segments cross directories, {@code *} and {@code ?} stay within a name. */
  private static Pattern segmentGlob(String glob) {
    String[] segments = glob.split("/");
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < segments.length; i++) {
      boolean last = i == segments.length - 1;
      if (segments[i].equals("**")) {
        regex.append(last ? ".*" : "(?:[^/]+/)*");
        continue;
      }
      for (char c : segments[i].toCharArray()) {
        regex.append(c == '*' ? "[^/]*" : c == '?' ? "[^/]" : Pattern.quote(String.valueOf(c)));
      }
      if (!last) {
        regex.append('/');
      }
    }
    return Pattern.compile(regex.toString());
  }

  private static boolean beneath(String dir, String path) {
    return dir.isEmpty() || path.equals(dir) || path.startsWith(dir + "/");
  }

  private static Map<String, byte[]> files(String user) {
    return FILES.computeIfAbsent(user, u -> new ConcurrentHashMap<>());
  }

  private static Map<String, Proc> processes(String user) {
    return PROCESSES.computeIfAbsent(user, u -> new ConcurrentHashMap<>());
  }
}
