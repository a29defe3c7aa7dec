package dev.workcell.gateway.openterminal.service;

import dev.workcell.contracts.error.ErrorCode;
import dev.workcell.contracts.error.WorkcellException;
import dev.workcell.contracts.sandbox.SandboxSubjects.SandboxRef;

/**
 * Who an Open Terminal request is for: {@code X-User-Id} (whole; it names the user's own sandbox)
 * and the optional {@code X-Session-Id} (a chat; it keys the working directory). A request without
 * a user is refused — there is no shared fallback account.
 */
public record TerminalCaller(String userId, String sessionId) {

  // sandbox-service takes home user ids of at most 256 characters (SandboxKey); refusing here saves the round trip.
  private static final int MAX_ID_CHARS = 256;

  public static TerminalCaller of(String userId, String sessionId) {
    if (userId == null || userId.isBlank()) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST,
          "The X-User-Id header is required: every user works in a sandbox of their own");
    }
    if (userId.length() > MAX_ID_CHARS || hasControl(userId)) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "X-User-Id is longer than 256 characters or holds control characters");
    }
    String session = sessionId == null || sessionId.isBlank() ? null : sessionId;
    if (session != null && (session.length() > MAX_ID_CHARS || hasControl(session))) {
      throw new WorkcellException(ErrorCode.INVALID_REQUEST, "X-Session-Id is longer than 256 characters or holds control characters");
    }
    return new TerminalCaller(userId, session);
  }

  public SandboxRef sandbox() {
    return SandboxRef.home(userId);
  }

  private static boolean hasControl(String value) {
    return value.chars().anyMatch(c -> c < 0x20 || c == 0x7f);
  }
}
