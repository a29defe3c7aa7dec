package dev.workcell.gateway.run.rest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A minimal Server-Sent Events reader for tests: frames in arrival order, then an end marker. */
public final class SseClient implements AutoCloseable {

  public record Frame(String event, String id, String data) {}

  private static final Frame END = new Frame("<end>", null, null);
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
  private final HttpResponse<Stream<String>> response;
  public volatile int heartbeats;

  private SseClient(HttpResponse<Stream<String>> response, boolean reading) {
    this.response = response;
    if (reading) {
      startReading();
    }
  }

  public static SseClient open(URI uri, String token, String lastEventId) throws Exception {
    return open(uri, token, lastEventId, true);
  }

  /** A client that reads nothing until {@link #startReading()}: the server's writes back up. */
  static SseClient stalled(URI uri, String token) throws Exception {
    return open(uri, token, null, false);
  }

  void startReading() {
    Thread.ofVirtual().start(this::read);
  }

  /** Counts frames until the end; fails if the stream is still open after {@code timeout}. */
  int countUntilEnd(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int count = 0;
    while (System.nanoTime() < deadline) {
      Frame frame = frames.poll(100, TimeUnit.MILLISECONDS);
      if (frame == END) {
        return count;
      }
      count += frame == null ? 0 : 1;
    }
    throw new AssertionError("the stream did not end within " + timeout);
  }

  private static SseClient open(URI uri, String token, String lastEventId, boolean reading) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token)
        .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(30));
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    return new SseClient(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofLines()), reading);
  }

  public int status() {
    return response.statusCode();
  }

  public Frame next() throws InterruptedException {
    Frame frame = frames.poll(10, TimeUnit.SECONDS);
    if (frame == null || frame == END) {
      throw new AssertionError(frame == null ? "no frame within 10 s" : "the stream ended");
    }
    return frame;
  }

  boolean endsWithin(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      Frame frame = frames.poll(100, TimeUnit.MILLISECONDS);
      if (frame == END) {
        return true;
      }
      if (frame != null) {
        throw new AssertionError("unexpected frame " + frame);
      }
    }
    return false;
  }

  private void read() {
    String event = null;
    String id = null;
    StringBuilder data = null;
    try (Stream<String> lines = response.body()) {
      for (String line : (Iterable<String>) lines::iterator) {
        if (line.isEmpty()) {
          if (event != null || id != null || data != null) {
            frames.add(new Frame(event, id, data == null ? null : data.toString()));
          }
          event = null;
          id = null;
          data = null;
        } else if (line.startsWith(":")) {
          heartbeats++;
        } else if (line.startsWith("event:")) {
          event = value(line);
        } else if (line.startsWith("id:")) {
          id = value(line);
        } else if (line.startsWith("data:")) {
          data = data == null ? new StringBuilder(value(line)) : data.append('\n').append(value(line));
        }
      }
    } catch (RuntimeException e) {
      // the connection was closed under the reader
    } finally {
      frames.add(END);
    }
  }

  private static String value(String line) {
    String value = line.substring(line.indexOf(':') + 1);
    return value.startsWith(" ") ? value.substring(1) : value;
  }

  @Override
  public void close() {
    response.body().close();
  }
}
