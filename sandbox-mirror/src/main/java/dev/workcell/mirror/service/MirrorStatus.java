package dev.workcell.mirror.service;

import java.time.Instant;
import java.util.List;

/**
 * The mirror at a glance ({@code GET /mirror/status}, {@code bin/workcell mirror}). {@code idle}: nothing
 * pending (every volume synced, no folder, removal or purge waiting, no copy in progress).
 */
public record MirrorStatus(boolean enabled, boolean idle, String bucket, int volumes, int volumesSyncing, int unwatchedVolumes,
    int watches, long objects, long bytes, int pendingFolders, double lagSeconds, long puts, long bytesUploaded,
    long errors, String lastError, Instant lastErrorAt, long linksSkipped, long specialsSkipped, long oversizedSkipped,
    List<MirrorReport.Skipped> recentSkips) {}
