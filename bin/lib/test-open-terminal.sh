# shellcheck shell=bash
# Open Terminal end to end: bin/lib/e2e/open_terminal_client.py against a running stack, one
# wt_check per check it makes (tools derived from openapi.json like OpenWebUI, a long process polled
# to completion, two users' isolation, escapes refused, no stack secret inside a sandbox).
# Sourced next to bin/lib/test.sh; needs python3, WC_LOGS and, for the secret checks, WC_SECRETS/WC_KEYS.

# wt_open_terminal_checks URL KEY — URL is the gateway base (http://127.0.0.1:8480) or already
# .../api/open-terminal; KEY the stack's terminal server key.
wt_open_terminal_checks() {
  local url=${1%/} key=$2 out rc=0 status name
  [[ $url == */api/open-terminal ]] || url=$url/api/open-terminal
  local args=("$url" "$key")
  [[ -s ${WC_SECRETS:-}/terminal-server-key ]] && args+=(--api-key-file "$WC_SECRETS/terminal-server-key")
  [[ -s ${WC_SECRETS:-}/pg-workcell_task ]] && args+=(--db-password-file "$WC_SECRETS/pg-workcell_task")
  [[ -s ${WC_KEYS:-}/jwt-private.pem ]] && args+=(--jwt-key-file "$WC_KEYS/jwt-private.pem")
  local secret
  for secret in "${WC_SECRETS:-/nonexistent}"/nats-*; do
    [[ -s $secret ]] && args+=(--secret-file "$secret")
  done
  out=$(mktemp)
  python3 "$(dirname "${BASH_SOURCE[0]}")/e2e/open_terminal_client.py" "${args[@]}" >"$out" 2>&1 || rc=$?
  cat "$out" >>"${WC_LOGS:-/tmp}/stack-test.log"
  if ! grep -qE '^(ok|FAIL) ' "$out"; then
    wt_check "open terminal: the client ran (see the log)" false
  fi
  while read -r status name; do
    wt_check "open terminal: ${name%%  -- *}" test "$status" = ok
  done < <(grep -E '^(ok|FAIL) ' "$out")
  wt_check "open terminal: the client exits 0" test "$rc" -eq 0
  rm -f "$out"
}
