package dev.workcell.sandbox.celld.client;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The arguments of one celld request, one record per op (celld's {@code server.go} decodes every op
 * into one struct, so a field here must keep celld's name). {@link CelldConnection} adds {@code id}
 * and {@code op} and writes the frame. A null field is left out of the frame, as celld reads an
 * absent optional as "not given": never send a JSON null.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public sealed interface CelldRequest {

  /** celld's name of the operation. */
  @JsonIgnore
  String op();

  /** Liveness and celld's version. */
  record Ping() implements CelldRequest {
    @Override
    public String op() {
      return "ping";
    }
  }

  /** Entries of one directory. */
  record ListDir(String path) implements CelldRequest {
    @Override
    public String op() {
      return "list";
    }
  }

  record Stat(String path) implements CelldRequest {
    @Override
    public String op() {
      return "stat";
    }
  }

  /** A whole UTF-8 text file. */
  record Read(String path) implements CelldRequest {
    @Override
    public String op() {
      return "read";
    }
  }

  /** A chunk of any file, answered in base64. */
  record ReadBytes(String path, long offset, int limit) implements CelldRequest {
    @Override
    public String op() {
      return "read_bytes";
    }
  }

  /**
   * A request whose large field (a write's content or data) a celld that announces
   * {@code bulkRequests} reads raw after the JSON: a bulk request frame (see {@link CelldConnection}),
   * which spares JSON escaping or base64 on both sides. Not itself a request type.
   */
  interface Raw {
    /** celld's name of the field that travels raw. */
    @JsonIgnore
    default String rawField() {
      return "data";
    }

    /** The field's bytes (the caller's array, not copied). */
    @JsonIgnore
    byte[] raw();

    /** The request without that field: the bulk frame's JSON. */
    @JsonIgnore
    CelldRequest head();

    /** The same request with the field in its JSON, for a celld without bulk requests (bytes: as base64). */
    @JsonIgnore
    default CelldRequest plain() {
      return (CelldRequest) this;
    }
  }

  /** Atomic replace with text; {@code expectedVersion} null: unconditional. */
  record Write(String path, String content, boolean createParents, String expectedVersion) implements CelldRequest {
    @Override
    public String op() {
      return "write";
    }
  }

  /**
   * {@link Write} with the text as the UTF-8 bytes that came (never a Java string): raw in a bulk
   * frame, where celld refuses bytes that are not UTF-8 ({@code not_utf8}); for a celld without bulk
   * requests decoded strictly here and sent as {@link Write}, refused the same way. Holds the
   * caller's array, as {@link WriteBytes}.
   */
  record WriteText(String path, byte[] content, boolean createParents, String expectedVersion) implements CelldRequest, Raw {
    @Override
    public String op() {
      return "write";
    }

    @Override
    public String rawField() {
      return "content";
    }

    @Override
    public byte[] raw() {
      return content;
    }

    @Override
    public CelldRequest head() {
      return new Write(path, null, createParents, expectedVersion);
    }

    @Override
    public CelldRequest plain() {
      try {
        String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(content)).toString();
        return new Write(path, text, createParents, expectedVersion);
      } catch (CharacterCodingException e) {
        throw new WorkcellException(ErrorCode.NOT_UTF8, path + ": content is not valid UTF-8 (write it as bytes)");
      }
    }
  }

  /**
   * Atomic replace with raw bytes; {@code expectedVersion} null: unconditional. In JSON Jackson writes
   * {@code data} as standard padded base64 straight into the frame, so no base64 string is built.
   * Holds the caller's array (not copied): the record's equality is the array's identity.
   */
  record WriteBytes(String path, byte[] data, boolean createParents, String expectedVersion) implements CelldRequest, Raw {
    @Override
    public String op() {
      return "write_bytes";
    }

    @Override
    public byte[] raw() {
      return data;
    }

    @Override
    public CelldRequest head() {
      return new WriteBytes(path, null, createParents, expectedVersion);
    }
  }

  /**
   * One part of a file written in parts (celld's {@code write_part}): into the hidden part file
   * named by {@code upload}; the {@code last} renames it over {@code path}. {@code mode} null: the
   * replaced file's, else 0644. Holds the caller's array, as {@link WriteBytes}.
   */
  record WritePart(String path, String upload, long offset, byte[] data, boolean last, boolean createParents, Integer mode)
      implements CelldRequest, Raw {
    @Override
    public String op() {
      return "write_part";
    }

    @Override
    public byte[] raw() {
      return data;
    }

    @Override
    public CelldRequest head() {
      return new WritePart(path, upload, offset, null, last, createParents, mode);
    }
  }

  record Mkdir(String path, boolean parents) implements CelldRequest {
    @Override
    public String op() {
      return "mkdir";
    }
  }

  record Delete(String path, boolean recursive) implements CelldRequest {
    @Override
    public String op() {
      return "delete";
    }
  }

  record Move(String from, String to) implements CelldRequest {
    @Override
    public String op() {
      return "move";
    }
  }

  /** Literal text search under {@code path}. */
  record Search(String path, String query, int maxHits) implements CelldRequest {
    @Override
    public String op() {
      return "search";
    }
  }

  /**
   * One command to completion. {@code cwd}, {@code env}, {@code quiet} (no output events) and
   * {@code maxOutput} (celld's cap for this command) are optional. The key order is the one the
   * hand-built requests had (env last).
   */
  @JsonPropertyOrder({"command", "timeoutSec", "cwd", "quiet", "maxOutput", "env"})
  record Exec(String command, int timeoutSec, String cwd, Map<String, String> env, Boolean quiet, Integer maxOutput)
      implements CelldRequest {

    /** A command with celld's default output handling. */
    public Exec(String command, int timeoutSec, String cwd, Map<String, String> env) {
      this(command, timeoutSec, cwd, env, null, null);
    }

    @Override
    public String op() {
      return "exec";
    }
  }

  /**
   * Starts a background process, waiting up to {@code waitMs} for it to end; {@code tail} null: all
   * output. {@code tty} true: on a terminal of its own (null: pipes, and the frame as before).
   */
  record ProcStart(String command, long waitMs, String cwd, Map<String, String> env, Integer tail, Boolean tty)
      implements CelldRequest {
    @Override
    public String op() {
      return "proc_start";
    }
  }

  record ProcStatus(String processId, long offset, long waitMs, Integer tail) implements CelldRequest {
    @Override
    public String op() {
      return "proc_status";
    }
  }

  /** Text for the process's stdin. */
  record ProcInput(String processId, String data) implements CelldRequest {
    @Override
    public String op() {
      return "proc_input";
    }
  }

  record ProcKill(String processId, boolean force) implements CelldRequest {
    @Override
    public String op() {
      return "proc_kill";
    }
  }

  record ProcList() implements CelldRequest {
    @Override
    public String op() {
      return "proc_list";
    }
  }

  /** TCP ports listening in the sandbox's network namespace (decision 0020). */
  record Ports() implements CelldRequest {
    @Override
    public String op() {
      return "ports";
    }
  }

  /** RE2 or literal search; {@code include} null: every file. */
  record Grep(String path, String query, boolean regex, boolean caseInsensitive, boolean matchPerLine, int maxResults,
      String include) implements CelldRequest {
    @Override
    public String op() {
      return "grep";
    }
  }

  /** Paths matching {@code pattern}; {@code type} is any, file or directory; {@code exclude} null: none. */
  record Glob(String path, String pattern, String type, int maxResults, String exclude) implements CelldRequest {
    @Override
    public String op() {
      return "glob";
    }
  }

  record PreviewStart(String command, int port) implements CelldRequest {
    @Override
    public String op() {
      return "preview_start";
    }
  }

  record PreviewStop() implements CelldRequest {
    @Override
    public String op() {
      return "preview_stop";
    }
  }

  record PreviewStatus() implements CelldRequest {
    @Override
    public String op() {
      return "preview_status";
    }
  }

  /**
   * Opens an interactive terminal session that lives as long as this request is in flight: its id
   * names the session in the other pty ops. Null fields take celld's defaults (80x24, the root,
   * a login shell, a 256 KiB output window). {@code rawOutput} true: output events are bulk frames
   * (the bytes raw after the JSON) rather than base64 in JSON; a celld that predates it ignores the
   * field and sends base64, which is read as before.
   */
  record PtyOpen(Integer cols, Integer rows, String cwd, Map<String, String> env, String command, Integer window,
      Boolean rawOutput) implements CelldRequest {

    public PtyOpen(Integer cols, Integer rows, String cwd, Map<String, String> env, String command, Integer window) {
      this(cols, rows, cwd, env, command, window, null);
    }

    @Override
    public String op() {
      return "pty_open";
    }
  }

  /** Keystrokes; Jackson writes {@code data} as base64, which celld expects. */
  record PtyInput(long session, byte[] data) implements CelldRequest {
    @Override
    public String op() {
      return "pty_input";
    }
  }

  record PtyResize(long session, int cols, int rows) implements CelldRequest {
    @Override
    public String op() {
      return "pty_resize";
    }
  }

  /** Returns output credit: {@code bytes} of the session's output were passed on. */
  record PtyAck(long session, int bytes) implements CelldRequest {
    @Override
    public String op() {
      return "pty_ack";
    }
  }

  /** Kills every process of the session; its pty_open request then ends. */
  record PtyClose(long session) implements CelldRequest {
    @Override
    public String op() {
      return "pty_close";
    }
  }

  /**
   * Connects to {@code port} on the sandbox's own loopback; the connection lives as long as this
   * request is in flight and its id names the stream in the other tcp ops (decision 0020).
   */
  record TcpOpen(int port, Integer window) implements CelldRequest {
    @Override
    public String op() {
      return "tcp_open";
    }
  }

  /** Bytes for the server; Jackson writes {@code data} as base64. */
  record TcpWrite(long stream, byte[] data) implements CelldRequest {
    @Override
    public String op() {
      return "tcp_write";
    }
  }

  /** Returns output credit: {@code bytes} of the stream's output were passed on. */
  record TcpAck(long stream, int bytes) implements CelldRequest {
    @Override
    public String op() {
      return "tcp_ack";
    }
  }

  record TcpClose(long stream) implements CelldRequest {
    @Override
    public String op() {
      return "tcp_close";
    }
  }

  /** Cancels the request with id {@code target}; celld handles it inline, ahead of queued work. */
  record Cancel(long target) implements CelldRequest {
    @Override
    public String op() {
      return "cancel";
    }
  }
}
