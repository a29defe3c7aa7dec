package dev.workcell.contracts.subject;

import dev.workcell.contracts.ServiceName;
import dev.workcell.contracts.Subjects;
import dev.workcell.contracts.preview.PreviewSubjects;
import dev.workcell.contracts.provider.ProviderSubjects;
import dev.workcell.contracts.run.RunBudget;
import dev.workcell.contracts.sandbox.SandboxSubjects;
import dev.workcell.contracts.task.RunControlApi;
import dev.workcell.contracts.task.TaskSubjects;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every subject of the suite, read from the constants of the classes that declare them. The NATS
 * users (NatsPermissions) and the tables of docs/nats.md are generated from this list.
 */
public final class SubjectTable {

  private static final List<Class<?>> DECLARING = List.of(Subjects.class, TaskSubjects.class, SandboxSubjects.class,
      ProviderSubjects.class, RunBudget.class, RunControlApi.class, PreviewSubjects.class);

  private SubjectTable() {}

  // Read once: the constants never change, and every generated view walks the whole table.
  private static final List<Subject<?, ?>> REQUESTS = readRequests();
  private static final List<Push<?>> PUSHES = readPushes();

  /** Request/reply subjects, sorted by name; pings included. */
  public static List<Subject<?, ?>> requests() {
    return REQUESTS;
  }

  /** Pushed subjects, sorted by pattern. */
  public static List<Push<?>> pushes() {
    return PUSHES;
  }

  private static List<Subject<?, ?>> readRequests() {
    List<Subject<?, ?>> all = new ArrayList<>();
    for (ServiceName service : ServiceName.values()) {
      all.add(Subjects.ping(service));
    }
    SubjectTable.<Subject<?, ?>>constants(Subject.class).forEach(all::add);
    all.sort(Comparator.comparing(Subject::name));
    return List.copyOf(all);
  }

  private static List<Push<?>> readPushes() {
    List<Push<?>> all = new ArrayList<>();
    SubjectTable.<Push<?>>constants(Push.class).forEach(all::add);
    all.sort(Comparator.comparing(Push::pattern));
    return List.copyOf(all);
  }

  @SuppressWarnings("unchecked")
  private static <T> List<T> constants(Class<?> type) {
    List<T> found = new ArrayList<>();
    for (Class<?> holder : DECLARING) {
      for (Field field : holder.getDeclaredFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isStatic(modifiers) && Modifier.isPublic(modifiers) && type.isAssignableFrom(field.getType())) {
          try {
            found.add((T) field.get(null));
          } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    }
    return found;
  }
}
