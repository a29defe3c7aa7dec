package dev.workcell.contracts.sandbox;

import java.time.Instant;

/**
 * How full a sandbox's volume is. A bounded volume has a filesystem of its own of {@code sizeBytes}
 * (writes past it fail with ENOSPC inside that sandbox only); {@code usedBytes} is measured in the
 * running sandbox ({@code measuredAt}) and is the last measurement, or null, while it is stopped. An
 * unbounded volume (made before disks were bounded, or on a deployment that turned them off) shares
 * the host's disk: both numbers are null.
 */
public record DiskUsage(boolean bounded, Long sizeBytes, Long usedBytes, Instant measuredAt) {

  public static DiskUsage unbounded() {
    return new DiskUsage(false, null, null, null);
  }
}
