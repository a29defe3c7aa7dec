package dev.workcell.task.support;

import dev.workcell.contracts.subject.Subject;

/**
 * One request ready to send: a subject and a body of its own request record, so a test can list
 * requests to many subjects and still have each pairing checked by the compiler.
 */
public record Call<Q>(Subject<Q, ?> subject, Q body) {

  public static <Q> Call<Q> of(Subject<Q, ?> subject, Q body) {
    return new Call<>(subject, body);
  }

  @Override
  public String toString() {
    return subject.name();
  }
}
