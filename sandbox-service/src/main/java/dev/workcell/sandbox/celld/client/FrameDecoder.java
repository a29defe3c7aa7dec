package dev.workcell.sandbox.celld.client;

import java.util.function.Consumer;

/**
 * Reassembles celld's frames (4-byte big-endian length, then a JSON body) from arbitrary chunks of
 * its stdout. A length of zero or above the cap is a protocol violation: nothing larger is buffered.
 */
final class FrameDecoder {

  private final int maxFrame;
  private final byte[] header = new byte[4];
  private int headerFill;
  private byte[] body;
  private int bodyFill;

  FrameDecoder(int maxFrame) {
    this.maxFrame = maxFrame;
  }

  void feed(byte[] data, Consumer<byte[]> frames) {
    int i = 0;
    while (i < data.length) {
      if (body == null) {
        int n = Math.min(4 - headerFill, data.length - i);
        System.arraycopy(data, i, header, headerFill, n);
        headerFill += n;
        i += n;
        if (headerFill < 4) {
          return;
        }
        long length = ((header[0] & 0xffL) << 24) | ((header[1] & 0xff) << 16) | ((header[2] & 0xff) << 8) | (header[3] & 0xff);
        if (length == 0 || length > maxFrame) {
          throw new CelldProtocolException("celld sent a frame of " + length + " bytes (allowed 1.." + maxFrame + ")");
        }
        body = new byte[(int) length];
        bodyFill = 0;
      }
      int n = Math.min(body.length - bodyFill, data.length - i);
      System.arraycopy(data, i, body, bodyFill, n);
      bodyFill += n;
      i += n;
      if (bodyFill == body.length) {
        byte[] frame = body;
        body = null;
        headerFill = 0;
        frames.accept(frame);
      }
    }
  }

  static byte[] encode(byte[] body) {
    byte[] frame = new byte[4 + body.length];
    frame[0] = (byte) (body.length >>> 24);
    frame[1] = (byte) (body.length >>> 16);
    frame[2] = (byte) (body.length >>> 8);
    frame[3] = (byte) body.length;
    System.arraycopy(body, 0, frame, 4, body.length);
    return frame;
  }
}
