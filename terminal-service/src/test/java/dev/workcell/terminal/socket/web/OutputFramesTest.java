package dev.workcell.terminal.socket.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** How a terminal's output chunks become WebSocket frames: the first at once, a flood packed. */
class OutputFramesTest {

  static byte[] chunk(int size, int fill) {
    byte[] data = new byte[size];
    Arrays.fill(data, (byte) fill);
    return data;
  }

  @Test
  void anEchoGoesOutAtOnceAndSoDoesTheNextWhenNothingIsInFlight() {
    OutputFrames frames = new OutputFrames();
    byte[] echo = "a".getBytes();
    assertThat(frames.offer(echo)).isSameAs(echo);
    assertThat(frames.next()).as("nothing waited").isNull();
    byte[] second = "b".getBytes();
    assertThat(frames.offer(second)).as("no write in flight: no waiting").isSameAs(second);
  }

  @Test
  void chunksArrivingDuringAWriteGoAsOneFrameInOrderUpTo64KiB() {
    OutputFrames frames = new OutputFrames();
    assertThat(frames.offer(chunk(4096, 0))).hasSize(4096);
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    for (int i = 1; i <= 40; i++) { // a flood: 40 reads of 4 KiB while the first frame is written
      byte[] c = chunk(4096, i);
      expected.writeBytes(c);
      assertThat(frames.offer(c)).isNull();
    }
    ByteArrayOutputStream sent = new ByteArrayOutputStream();
    int count = 0;
    for (byte[] frame = frames.next(); frame != null; frame = frames.next()) {
      assertThat(frame.length).isLessThanOrEqualTo(OutputFrames.MAX_FRAME);
      sent.writeBytes(frame);
      count++;
    }
    assertThat(count).as("160 KiB in 64 KiB frames").isEqualTo(3);
    assertThat(sent.toByteArray()).isEqualTo(expected.toByteArray());
    assertThat(frames.offer(chunk(1, 9))).as("drained: the next chunk goes at once").hasSize(1);
  }

  @Test
  void whatWaitsWhenTheOutputEndsIsHandedOverWholeAndNothingIsWrittenTwice() {
    OutputFrames frames = new OutputFrames();
    frames.offer(chunk(10, 1));
    frames.offer("logout\r\n".getBytes());
    frames.offer(chunk(70_000, 2));
    var rest = frames.rest();
    assertThat(rest).hasSize(2);
    assertThat(new String(rest.get(0))).isEqualTo("logout\r\n");
    assertThat(rest.get(1)).hasSize(70_000);
    assertThat(frames.next()).as("the write in flight completes: nothing left").isNull();
  }
}
