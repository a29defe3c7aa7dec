package dev.workcell.openapiclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.workcell.client.ApiClient;
import dev.workcell.client.ApiException;
import dev.workcell.client.api.FilesApi;
import dev.workcell.client.api.RunsApi;
import dev.workcell.client.api.TasksApi;
import dev.workcell.client.model.CreateTaskRequest;
import dev.workcell.client.model.TaskCreated;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The client openapi-generator makes from /q/openapi, against a real stack: the admin stack check
 * (bin/lib/test-admin.sh) passes its URL, an admin token and a provider whose "life-" models write
 * result.txt (the runs fixture model). Without them (plain mvn verify) the client is compiled only.
 */
class GeneratedClientTest {

  private static final String URL = System.getProperty("workcell.url", "");
  private static final String TOKEN = System.getProperty("workcell.token", "");
  private static final String PROVIDER_ID = System.getProperty("workcell.provider-id", "");

  @Test
  void createsATaskStreamsItsEventsAndReadsTheFileTheModelWrote() throws ApiException {
    assumeTrue(!URL.isBlank() && !TOKEN.isBlank() && !PROVIDER_ID.isBlank(), "no stack named (-Dworkcell.url, token, provider-id)");
    List<String> events = new ArrayList<>();
    TasksApi tasks = new TasksApi(client(null));
    FilesApi files = new FilesApi(client(null));
    // The stream is text/event-stream: the generated method would read it whole and then parse it as
    // JSON, so the response interceptor reads its lines as they arrive, and the method gets an empty body.
    RunsApi runs = new RunsApi(client(response -> events.addAll(eventTypes(response.body()))));

    TaskCreated created = tasks.createTask(new CreateTaskRequest().message("Write result.txt.")
        .provider("ollama").providerId(PROVIDER_ID).model("life-client"));
    String taskId = created.getTask().getId();
    try {
      runs.streamRunEvents(created.getRun().getId(), taskId, null, null);

      assertThat(events).contains("tool_call", "tool_result").last().isEqualTo("done");
      assertThat(events.indexOf("tool_call")).isLessThan(events.indexOf("tool_result"));
      assertThat(files.readWorkspaceFile(taskId, "result.txt").getContent()).isEqualTo("made by life-client\n");
      assertThatThrownBy(() -> files.readWorkspaceFile(taskId, "missing.txt"))
          .isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.getCode()).isEqualTo(404);
            assertThat(e.getResponseBody()).contains("\"code\":\"not_found\"");
          });
    } finally {
      tasks.deleteTask(taskId);
    }
  }

  private static ApiClient client(Consumer<HttpResponse<InputStream>> onResponse) {
    ApiClient client = new ApiClient();
    client.updateBaseUri(URL);
    client.setReadTimeout(Duration.ofSeconds(120));
    client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + TOKEN));
    if (onResponse != null) {
      client.setResponseInterceptor(onResponse);
    }
    return client;
  }

  /** The {@code event:} names of a Server-Sent Events stream, read as they arrive until the server ends it (after done). */
  private static List<String> eventTypes(InputStream body) {
    List<String> types = new ArrayList<>();
    // Not closed: the generated method reads the (then empty) body after this.
    BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    try {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.startsWith("event:")) {
          types.add(line.substring("event:".length()).strip());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return types;
  }
}
