package dev.workcell.sandbox.messaging;

import dev.workcell.contracts.Actor;
import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;
import dev.workcell.sandbox.runtime.SandboxKey;
import dev.workcell.sandbox.runtime.SandboxNames;

/**
 * Authorises every request again from its headers: a user acts only on sandboxes it owns (anything
 * else is {@code not_found}, so ids of others' tasks reveal nothing); admins and services may name any
 * owner. Only services (the gateway, for the Open Terminal API) may name a home.
 */
public final class SandboxAccess {

  private static final int OWNER_MAX_CHARS = 200;

  private SandboxAccess() {}

  public static SandboxRef require(Actor actor, SandboxRef ref) {
    if (ref == null) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "sandbox (taskId, ownerId) is required");
    }
    if (ref.isHome()) {
      if (actor.role() != Actor.Role.SERVICE) {
        throw new WorkcellException(ErrorCode.FORBIDDEN, "only services may name a home sandbox");
      }
      if (ref.taskId() != null || ref.ownerId() != null) {
        throw new WorkcellException(ErrorCode.INVALID_REQUEST, "a home sandbox names no task or owner");
      }
      SandboxKey.of(ref); // validates the user id
      return ref;
    }
    SandboxNames.requireTaskId(ref.taskId());
    String owner = ref.ownerId();
    if (owner == null || owner.isBlank() || owner.length() > OWNER_MAX_CHARS || owner.chars().anyMatch(Character::isISOControl)) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "ownerId must be 1.." + OWNER_MAX_CHARS + " printable characters");
    }
    if (actor.role() == Actor.Role.USER && !actor.accountId().equals(owner)) {
      throw new WorkcellException(ErrorCode.NOT_FOUND, "no such sandbox");
    }
    return ref;
  }

  /** The owner a LIST may cover: users always their own, others whom they name (null: all). */
  public static String listScope(Actor actor, String requestedOwner) {
    return actor.role() == Actor.Role.USER ? actor.accountId() : requestedOwner;
  }
}
