package dev.workcell.gateway.openterminal.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.workcell.contracts.sandbox.FileBytes;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A download hands its chunks out one by one and forgets each once it is taken. */
class TerminalSandboxChunksTest {

  static final int CHUNK = 1024;
  static final long SIZE = 40L * CHUNK;

  @Test
  void everyChunkComesInOrderAndTheStreamEndsAtTheSize() {
    List<byte[]> got = TerminalSandbox.from(chunk(0), SIZE, offset -> Uni.createFrom().item(chunk(offset)))
        .collect().asList().await().indefinitely();
    assertThat(got).hasSize(40);
    assertThat(got).allSatisfy(data -> assertThat(data).hasSize(CHUNK));
    assertThat(got.get(39)[0]).isEqualTo((byte) 39);
  }

  @Test
  void aChunkAlreadyTakenIsNotKeptUntilTheDownloadEnds() {
    // The gateway's heap held every chunk of a download until its end: two 50 MB archives and a
    // 25 MB view at once ended it with OutOfMemoryError.
    List<WeakReference<byte[]>> handedOut = new ArrayList<>();
    // Counts what it took and keeps none of it, as the HTTP response does once a chunk is written.
    AssertSubscriber<Integer> reader = TerminalSandbox.from(chunk(0), SIZE, offset -> Uni.createFrom().item(chunk(offset)))
        .invoke(data -> handedOut.add(new WeakReference<>(data)))
        .map(data -> data.length)
        .subscribe().withSubscriber(AssertSubscriber.create(0));
    reader.request(30);
    System.gc();
    assertThat(handedOut).hasSize(30);
    assertThat(handedOut).allSatisfy(ref -> assertThat(ref.get()).isNull());
    reader.request(20);
    reader.assertCompleted();
  }

  private static FileBytes chunk(long offset) {
    byte[] data = new byte[CHUNK];
    data[0] = (byte) (offset / CHUNK);
    return new FileBytes("big.bin", data, offset, SIZE, offset + CHUNK >= SIZE, null);
  }
}
