# shellcheck shell=bash
# Interactive terminals on a real stack (issue 20): OpenWebUI's Open Terminal terminals through the
# gateway's origin (gateway → terminal-service → NATS → sandbox-service → celld), with a real
# WebSocket client (bin/lib/e2e/ws_client.py). Sourced by bin/lib/test.sh; defines functions only.
#
#   wt_terminal_checks URL KEY STATE_DIR STACK_COMMAND...
#
# The Work terminal (/ws/work-terminal, one-time tickets) runs as an admin account of its own, which
# the stack's admin disables once (bin/lib/e2e/work_terminal_checks.py).

wt_terminal_checks() {
  local url=$1 key=$2 state=$3 e2e=$ROOT/bin/lib/e2e/terminal_checks.py admin user
  shift 3
  wt_check "terminal: /api/open-terminal/api/config reports terminal: true" python3 "$e2e" config "$url" "$key"
  wt_check "terminal: type echo, read it back" python3 "$e2e" echo "$url" "$key"
  wt_check "terminal: resize, then stty size shows it" python3 "$e2e" resize "$url" "$key"
  wt_check "terminal: Ctrl-C ends sleep 100" python3 "$e2e" ctrl-c "$url" "$key"
  wt_check "terminal: exit closes the socket and ends the session" python3 "$e2e" exit "$url" "$key"
  wt_check "terminal: OpenWebUI's flow (create, list, wrong key 4001, right key, command, resize, delete, 4004)" \
    python3 "$e2e" openwebui "$url" "$key"
  wt_check "terminal: another user's session is 404 over HTTP and 4004 over the WebSocket" \
    python3 "$e2e" other-user "$url" "$key"
  wt_check "terminal: yes for 10 s into a slow reader: at most 16 MiB on its way, gateway/terminal/sandbox RSS +<64 MiB, ^C in <5 s" \
    python3 "$e2e" flood "$url" "$key" "$state/run"
  admin=$("$@" token --user admin --role admin 2>/dev/null) && user=$("$@" token --user terminal-check --role admin 2>/dev/null)
  wt_check "work terminal: tickets, origin, per-task cap, revocation within 1 s" \
    python3 "$ROOT/bin/lib/e2e/work_terminal_checks.py" "$url" "$admin" "$user"
  wt_check "terminal: python3 through run_command answers send_process_input print(6*7) with 42" \
    python3 "$e2e" python3 "$url" "$key"
  # The idle timeout on a terminal-service restarted with a short one, then the default again.
  wt_check "work terminal: terminal-service restarts with WORK_TERMINAL_IDLE_TIMEOUT_MS=3000" \
    wt_terminal_restart "$state" env WORK_TERMINAL_IDLE_TIMEOUT_MS=3000 "$@"
  wt_check "work terminal: 3 s without input or output closes the session (4000); typing keeps it open" \
    python3 "$ROOT/bin/lib/e2e/work_terminal_checks.py" "$url" "$admin" "$user" --idle 3000
  wt_check "work terminal: terminal-service restarts with the default idle timeout" \
    wt_terminal_restart "$state" "$@"
  # Last: the kill leaves sandbox-service restarted by the launcher (its sandboxes stopped by the new instance).
  wt_check "terminal: kill -9 of sandbox-service closes an open Work and Open Terminal terminal (1011) within 5 s, frees their places; new ones work once it is back" \
    python3 "$ROOT/bin/lib/e2e/work_terminal_checks.py" "$url" "$admin" "$user" --lost "$state/run/sandbox-service.pid" "$key"
}

# wt_terminal_restart STATE_DIR STACK_COMMAND... — stops terminal-service; up starts it with this environment.
wt_terminal_restart() {
  local state=$1
  shift
  wc_stop_service terminal-service "$state/run"
  "$@" up >/dev/null
}
