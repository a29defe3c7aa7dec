package dev.workcell.mirror.service;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One sandbox volume (a task's workspace or an Open Terminal home) and what the bucket holds of it:
 * per folder, each file's size, mtime and MD5 as last copied. Changes are compared with this index,
 * so an unchanged file is never read again while the mirror runs.
 */
final class Volume {

  /** What was copied of one file. */
  record Copied(long size, long mtimeMillis, String md5) {}

  private static final Pattern TASK = Pattern.compile("workcell-ws-([A-Za-z0-9][A-Za-z0-9_-]{0,63})");
  private static final Pattern HOME = Pattern.compile("workcell-(?:.+-)?home-([0-9a-f]{16,128})");

  final String folderName;
  /** {@code tasks/<task id>/} or {@code homes/<home id>/}. */
  final String prefix;
  final SafeTree tree;
  /** folder ("" is the root) → file name → what was copied. */
  final Map<String, Map<String, Copied>> index = new ConcurrentHashMap<>();
  /** Files over the size limit: left alone, and never taken for deleted. */
  final Set<String> oversized = ConcurrentHashMap.newKeySet();
  volatile boolean synced;
  volatile boolean unwatched;

  private Volume(String folderName, String prefix, SafeTree tree) {
    this.folderName = folderName;
    this.prefix = prefix;
    this.tree = tree;
  }

  /** The volume a disk folder holds, by sandbox-service's names (SandboxNames, SandboxKey); empty for any other. */
  static Optional<String> prefixOf(String folderName) {
    Matcher task = TASK.matcher(folderName);
    if (task.matches()) {
      return Optional.of("tasks/" + task.group(1) + "/");
    }
    Matcher home = HOME.matcher(folderName);
    return home.matches() ? Optional.of("homes/" + home.group(1) + "/") : Optional.empty();
  }

  static Volume of(String folderName, String prefix, java.nio.file.Path data) {
    return new Volume(folderName, prefix, new SafeTree(data));
  }

  long objects() {
    return index.values().stream().mapToLong(Map::size).sum();
  }

  long bytes() {
    return index.values().stream().flatMap(m -> m.values().stream()).mapToLong(Copied::size).sum();
  }

  static String child(String folder, String name) {
    return folder.isEmpty() ? name : folder + "/" + name;
  }

  static String parent(String rel) {
    int slash = rel.lastIndexOf('/');
    return slash < 0 ? "" : rel.substring(0, slash);
  }

  static boolean under(String rel, String folder) {
    return folder.isEmpty() || rel.equals(folder) || rel.startsWith(folder + "/");
  }
}
