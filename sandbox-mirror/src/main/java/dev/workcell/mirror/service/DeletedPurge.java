package dev.workcell.mirror.service;

import dev.workcell.mirror.client.Bucket;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Empties the days under {@code .deleted/} whose retention has passed. A file deleted on day D is
 * kept until the end of D plus the retention, so it is always kept at least that long.
 */
final class DeletedPurge {

  static final String DELETED = ".deleted/";

  private final Bucket bucket;
  private final Duration retention;
  private final Clock clock;

  DeletedPurge(Bucket bucket, Duration retention, Clock clock) {
    this.bucket = bucket;
    this.retention = retention;
    this.clock = clock;
  }

  void run() {
    for (String day : bucket.folders(DELETED)) {
      LocalDate date;
      try {
        date = LocalDate.parse(day.substring(DELETED.length(), day.length() - 1));
      } catch (DateTimeParseException notADay) {
        continue;
      }
      if (date.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().plus(retention).isBefore(clock.instant())) {
        List<String> keys = new ArrayList<>();
        bucket.list(day, o -> keys.add(o.key()));
        bucket.delete(keys);
      }
    }
  }
}
