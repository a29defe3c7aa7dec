package dev.workcell.mirror.service;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * Opens a file of a tree the sandbox controls so that neither a link nor a FIFO can catch the
 * reader: every folder is opened relative to its parent with {@code O_NOFOLLOW|O_DIRECTORY}, the file
 * with {@code O_RDONLY|O_NONBLOCK|O_NOFOLLOW} (a FIFO swapped in after the listing opens at once
 * instead of waiting for a writer), and the descriptor itself is checked with {@code statx}: anything
 * but a regular file is closed and refused. The bytes are then read through {@code /proc/self/fd/N},
 * which is that same open file, never a path looked up again.
 *
 * <p>Java has no {@code O_NONBLOCK} open; this calls libc through the foreign-function API (final in
 * Java 22). The build targets Java 21, where that API is a preview, so it is reached by reflection and
 * {@link #available()} is false there: the caller then keeps its lstat-then-open (decision 0021's gap).
 */
final class RegularFileOpener {

  private static final int O_RDONLY = 0;
  private static final int O_NONBLOCK = 04000;
  private static final int O_DIRECTORY = 0200000;
  private static final int O_NOFOLLOW = 0400000;
  private static final int O_CLOEXEC = 02000000;
  private static final int AT_EMPTY_PATH = 0x1000;
  private static final int STATX_TYPE = 0x1;
  private static final int STATX_MODE_OFFSET = 0x1C; // struct statx: stx_mode (u16), the same on every Linux architecture
  private static final int S_IFMT = 0170000;
  private static final int S_IFREG = 0100000;
  private static final int AT_FDCWD = -100;

  private static final Native NATIVE = Native.load().orElse(null);

  private RegularFileOpener() {}

  static boolean available() {
    return NATIVE != null;
  }

  /**
   * Regular file {@code rel} under {@code root}, opened for reading; {@link NoSuchFileException} when
   * it is gone, a link (or under one), or no longer a regular file.
   */
  static FileChannel open(Path root, String rel) throws IOException {
    Native n = NATIVE;
    if (n == null) {
      throw new IllegalStateException("no foreign-function API in this Java");
    }
    try (AutoCloseable arena = n.arena()) {
      int dir = n.openat(arena, AT_FDCWD, root.toString(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (dir < 0) {
        throw new NoSuchFileException(root.toString());
      }
      String[] segments = rel.split("/");
      try {
        for (int i = 0; i < segments.length - 1; i++) {
          int next = n.openat(arena, dir, segments[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
          n.close(dir);
          dir = next;
          if (dir < 0) {
            throw new NoSuchFileException(rel + " (a folder on its way is gone or a link)");
          }
        }
        int file = n.openat(arena, dir, segments[segments.length - 1], O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        if (file < 0) {
          throw new NoSuchFileException(rel + " (gone, a link, or not readable)");
        }
        try {
          int mode = n.statxMode(arena, file);
          if (mode < 0 || (mode & S_IFMT) != S_IFREG) {
            throw new NoSuchFileException(rel + " is no longer a regular file");
          }
          // The same open file (a regular one: no wait for a writer), not the path again.
          return FileChannel.open(Path.of("/proc/self/fd/" + file), StandardOpenOption.READ);
        } finally {
          n.close(file);
        }
      } finally {
        if (dir >= 0) {
          n.close(dir);
        }
      }
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IOException("native open of " + rel + " failed", e);
    }
  }

  /** openat, statx and close of libc, with the reflective calls their use needs. */
  private record Native(MethodHandle openat, MethodHandle statx, MethodHandle close, Method ofConfined, Method allocateFrom,
      Method allocate, Method getShort, Object javaShort) {

    static Optional<Native> load() {
      if (Runtime.version().feature() < 22 || !System.getProperty("os.name", "").toLowerCase().contains("linux")) {
        return Optional.empty();
      }
      try {
        Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
        Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
        Class<?> layout = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayout = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> descriptor = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> option = Class.forName("java.lang.foreign.Linker$Option");
        Class<?> arena = Class.forName("java.lang.foreign.Arena");
        Class<?> allocator = Class.forName("java.lang.foreign.SegmentAllocator");
        Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
        Object lookup = linkerClass.getMethod("defaultLookup").invoke(linker);
        Object javaInt = valueLayout.getField("JAVA_INT").get(null);
        Object address = valueLayout.getField("ADDRESS").get(null);
        Method of = descriptor.getMethod("of", layout, layout.arrayType());
        Method find = Class.forName("java.lang.foreign.SymbolLookup").getMethod("find", String.class);
        Method downcall = linkerClass.getMethod("downcallHandle", segment, descriptor, option.arrayType());
        Object noOptions = java.lang.reflect.Array.newInstance(option, 0);
        java.util.function.BiFunction<String, Object, MethodHandle> handle = (name, desc) -> {
          try {
            Object symbol = ((Optional<?>) find.invoke(lookup, name)).orElseThrow();
            return (MethodHandle) downcall.invoke(linker, symbol, desc, noOptions);
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        };
        // openat is variadic; its mode is passed as a fourth int (0), which the kernel ignores without O_CREAT.
        MethodHandle openat = handle.apply("openat", of.invoke(null, javaInt, layouts(layout, javaInt, address, javaInt, javaInt)));
        MethodHandle statx = handle.apply("statx", of.invoke(null, javaInt, layouts(layout, javaInt, address, javaInt, javaInt, address)));
        MethodHandle close = handle.apply("close", of.invoke(null, javaInt, layouts(layout, javaInt)));
        Object javaShort = valueLayout.getField("JAVA_SHORT").get(null);
        Method getShort = segment.getMethod("get", Class.forName("java.lang.foreign.ValueLayout$OfShort"), long.class);
        return Optional.of(new Native(openat, statx, close, arena.getMethod("ofConfined"),
            allocator.getMethod("allocateFrom", String.class), allocator.getMethod("allocate", long.class), getShort, javaShort));
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        return Optional.empty();
      }
    }

    /** A {@code MemoryLayout[]} of {@code items}. */
    private static Object layouts(Class<?> layout, Object... items) {
      Object array = java.lang.reflect.Array.newInstance(layout, items.length);
      for (int i = 0; i < items.length; i++) {
        java.lang.reflect.Array.set(array, i, items[i]);
      }
      return array;
    }

    AutoCloseable arena() throws ReflectiveOperationException {
      return (AutoCloseable) ofConfined.invoke(null);
    }

    int openat(Object arena, int dir, String name, int flags) throws Throwable {
      return (int) openat.invokeWithArguments(dir, allocateFrom.invoke(arena, name), flags, 0);
    }

    /** The file type and mode bits of an open descriptor (statx with AT_EMPTY_PATH), or -1. */
    int statxMode(Object arena, int fd) throws Throwable {
      Object buffer = allocate.invoke(arena, 256L);
      int rc = (int) statx.invokeWithArguments(fd, allocateFrom.invoke(arena, ""), AT_EMPTY_PATH, STATX_TYPE, buffer);
      return rc != 0 ? -1 : Short.toUnsignedInt((short) getShort.invoke(buffer, javaShort, (long) STATX_MODE_OFFSET));
    }

    void close(int fd) throws Throwable {
      close.invokeWithArguments(fd);
    }
  }
}
