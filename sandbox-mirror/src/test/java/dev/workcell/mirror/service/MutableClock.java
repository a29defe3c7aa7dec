package dev.workcell.mirror.service;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The real time plus an offset a test moves forward (the retention of .deleted/). */
final class MutableClock extends Clock {

  private volatile Duration offset = Duration.ZERO;

  void advance(Duration by) {
    offset = offset.plus(by);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(offset);
  }
}
