package dev.workcell.sandbox.runtime;

import dev.workcell.contracts.error.WorkcellException;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/** How a driver runs one runtime call: any failure leaves it as a {@link WorkcellException} its translator names. */
public final class DriverCalls {

  private DriverCalls() {}

  public static <T> T call(String action, Supplier<T> work, BiFunction<String, RuntimeException, WorkcellException> translate) {
    try {
      return work.get();
    } catch (RuntimeException e) {
      throw translate.apply(action, e);
    }
  }

  public static void run(String action, Runnable work, BiFunction<String, RuntimeException, WorkcellException> translate) {
    call(action, () -> {
      work.run();
      return null;
    }, translate);
  }
}
