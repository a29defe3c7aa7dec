package dev.workcell.gateway.openterminal.rest;

/** Names shared by the Open Terminal resources. */
final class TerminalApi {

  static final String BASE = "/api/open-terminal";
  static final String USER = "X-User-Id";
  static final String SESSION = "X-Session-Id";

  private TerminalApi() {}
}
