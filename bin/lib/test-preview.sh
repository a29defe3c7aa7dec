# shellcheck shell=bash
# Work previews through signed URLs on a real stack (issue 21): gateway → preview-proxy → the
# sandbox's published preview port. Sourced by bin/lib/test.sh; defines functions only.
#
#   wt_preview_checks URL ADMIN_TOKEN PREVIEW_KEY_FILE
#
# ADMIN_TOKEN: an account of the checks' own; their two task sandboxes count against its runtime limit.
#
# Uses wa_call / wa_expect of bin/lib/test-work-api.sh, and the runs fixture model (bin/lib/test-runs.sh,
# model "webapp-…": bin/lib/e2e/preview_webapp.py) as an admin provider for the agent run. The key file signs an expired link (the
# launcher's secrets/preview-key of this stack).

WP_DIR='' WP_A='' WP_B='' WP_URL_A1='' WP_URL_A2='' WP_URL_B='' WP_W='' WP_URL_W=''

# The preview: python's http.server on the preview port, adding a Set-Cookie the client must not see.
WP_SERVER='import http.server
class H(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Set-Cookie", "preview=leak")
        super().end_headers()
http.server.ThreadingHTTPServer(("0.0.0.0", 4173), H).serve_forever()
'

wt_preview_checks() {
  WA_URL=$1 WA_ADMIN=$2
  local key=$3
  WP_DIR=$(mktemp -d)
  # First, alone: an agent run's task sandbox, gone before the two REST tasks (the per-owner runtime limit is 2).
  if wt_check "preview: an agent run (fixture model) writes a web app with a WebSocket echo and calls start_preview" wp_agent_run; then
    wt_check "preview: start_preview's tool result carries a signed URL under /api/work/previews/" wp_agent_url
    wt_check "preview: the agent's URL serves its page with the CSP sandbox and no Set-Cookie" wp_agent_page
    wt_check "preview: the app's WebSocket echoes through the gateway and preview-proxy" wp_agent_ws
    wt_check "preview: after stop the agent's URL → 403 preview_revoked; its task is deleted" wp_agent_stop
  fi
  wp_agent_cleanup
  wt_check "preview: two tasks, each with a page and a server that sets a cookie" wp_two_tasks
  wt_check "preview: start answers a signed URL under /api/work/previews/" wp_start_a
  wt_check "preview: the URL serves the page with the CSP sandbox, nosniff, no-store and no Set-Cookie" wp_serves_hardened
  wt_check "preview: each task's URL reaches only its own sandbox" wp_each_its_own
  wt_check "preview: a tampered signature → 403 preview_link_invalid" wp_tampered
  wt_check "preview: an expired signature → 403 preview_link_expired" wp_expired "$key"
  wt_check "preview: after stop the URL → 403 preview_revoked" wp_stop_revokes
  wt_check "preview: after a restart the old URL → 403 preview_revoked, the new one works" wp_restart
  wt_check "preview: the tasks are deleted" wp_delete
  rm -rf "$WP_DIR"
}

# wp_get URL_PATH NAME — GET through the gateway; headers to NAME.h, body to NAME.b; prints the status.
wp_get() {
  curl -s -D "$WP_DIR/$2.h" -o "$WP_DIR/$2.b" -w '%{http_code}' --max-time 30 "$WA_URL$1"
}

wp_problem() { # wp_problem URL_PATH CODE
  local status
  status=$(wp_get "$1" problem)
  [[ $status == 403 ]] || { echo "expected 403, got $status"; cat "$WP_DIR/problem.b"; return 1; }
  grep -qi '^content-type: application/problem+json' "$WP_DIR/problem.h" || { echo "not a problem"; return 1; }
  grep -q "\"code\":\"$2\"" "$WP_DIR/problem.b" || { echo "expected $2: $(cat "$WP_DIR/problem.b")"; return 1; }
}

wp_task() { # wp_task NAME — prints the new task's id, after writing its page and server
  local id body
  wa_call POST /api/work/tasks "$WA_ADMIN" '{"message":"preview check","provider":"ollama","model":"qwen3:8b","title":"preview '"$1"'"}' \
    >&2 && wa_expect 201 >&2 || return 1
  id=$(sed -n 's/.*"task":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$WA_BODY")
  [[ -n $id ]] || return 1
  wa_call PUT "/api/work/tasks/$id/file" "$WA_ADMIN" '{"path":"index.html","content":"<h1>preview of '"$1"'</h1>"}' >&2 \
    && wa_expect 200 >&2 || return 1
  body=$(python3 -c 'import json,sys; print(json.dumps({"path":"server.py","content":sys.argv[1]}))' "$WP_SERVER")
  wa_call PUT "/api/work/tasks/$id/file" "$WA_ADMIN" "$body" >&2 && wa_expect 200 >&2 || return 1
  printf '%s\n' "$id"
}

wp_agent_run() {
  wt_runs_model_start || return 1
  wa_call PUT /api/work/admin/providers/preview-fixture "$WA_ADMIN" '{"kind":"ollama","baseUrl":"'"$(wt_runs_model_url)"'"}' || return 1
  [[ $WA_STATUS == 200 || $WA_STATUS == 201 ]] || return 1
  wa_call POST /api/work/tasks "$WA_ADMIN" '{"message":"Build a page with a WebSocket echo and preview it.","provider":"ollama",
    "providerId":"preview-fixture","model":"webapp-'"$RANDOM"'","title":"preview webapp"}' && wa_expect 201 || return 1
  WP_W=$(sed -n 's/.*"task":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$WA_BODY")
  [[ -n $WP_W && $(wt_life_await_end "$WA_URL" "$WA_ADMIN" "$WP_W" 120) == completed ]]
}

wp_agent_url() { # the tool result the model read, in the task's messages
  wa_call GET "/api/work/tasks/$WP_W/messages" "$WA_ADMIN" >/dev/null && wa_expect 200 || return 1
  WP_URL_W=$(grep -o '/api/work/previews/[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/' <<<"$WA_BODY" | head -n 1)
  echo "start_preview's URL: $WP_URL_W"
  [[ -n $WP_URL_W ]]
}

wp_agent_page() {
  local status
  status=$(wp_get "$WP_URL_W" w)
  cat "$WP_DIR/w.h"
  [[ $status == 200 ]] && grep -q 'webapp preview' "$WP_DIR/w.b" || return 1
  grep -qi '^content-security-policy: sandbox allow-scripts allow-forms allow-modals allow-downloads allow-popups' "$WP_DIR/w.h" || return 1
  ! grep -qi '^set-cookie' "$WP_DIR/w.h"
}

wp_agent_ws() { # the app's 101 answer sets a cookie too: the client must not see it
  local answer
  answer=$(python3 "$ROOT/bin/lib/e2e/preview_webapp.py" ws-echo "$WA_URL${WP_URL_W}ws" "hello through the proxy") || return 1
  echo "answer: $answer"
  [[ $answer == "echo:hello through the proxy" ]]
}

wp_agent_stop() {
  wa_call POST "/api/work/tasks/$WP_W/preview/stop" "$WA_ADMIN" && wa_expect 200 || return 1
  sleep 1.2 # the proxy reuses a check for at most 1 s
  wp_problem "$WP_URL_W" preview_revoked || return 1
  wa_call DELETE "/api/work/tasks/$WP_W" "$WA_ADMIN" && wa_expect 200 && WP_W=''
}

wp_agent_cleanup() {
  [[ -z $WP_W ]] || wa_call DELETE "/api/work/tasks/$WP_W" "$WA_ADMIN" >/dev/null
  wa_call DELETE /api/work/admin/providers/preview-fixture "$WA_ADMIN" >/dev/null
  wt_runs_model_stop # a fixture left running would keep the stack lock of whoever started the checks
}

wp_two_tasks() {
  WP_A=$(wp_task a) && WP_B=$(wp_task b)
}

wp_start() { # wp_start TASK — prints the signed URL's path
  wa_call POST "/api/work/tasks/$1/preview/start" "$WA_ADMIN" '{"command":"python3 server.py"}' >&2 && wa_expect 200 >&2 || return 1
  local path
  path=$(wa_field path)
  [[ $path == /api/work/previews/*/ ]] || { echo "no signed path: $WA_BODY" >&2; return 1; }
  printf '%s\n' "$path"
}

wp_start_a() {
  WP_URL_A1=$(wp_start "$WP_A") && WP_URL_B=$(wp_start "$WP_B")
}

wp_serves_hardened() {
  local status
  status=$(wp_get "$WP_URL_A1" a1)
  cat "$WP_DIR/a1.h"
  [[ $status == 200 ]] || { echo "status $status"; return 1; }
  grep -q 'preview of a' "$WP_DIR/a1.b" || return 1
  grep -qi '^content-security-policy: sandbox allow-scripts allow-forms allow-modals allow-downloads allow-popups' "$WP_DIR/a1.h" || return 1
  grep -qi '^x-content-type-options: nosniff' "$WP_DIR/a1.h" || return 1
  grep -qi '^cache-control: no-store' "$WP_DIR/a1.h" || return 1
  ! grep -qi '^set-cookie' "$WP_DIR/a1.h"
}

wp_each_its_own() {
  [[ $(wp_get "$WP_URL_B" b) == 200 ]] && grep -q 'preview of b' "$WP_DIR/b.b" || return 1
  [[ $(wp_get "$WP_URL_A1" a) == 200 ]] && grep -q 'preview of a' "$WP_DIR/a.b"
}

wp_tampered() {
  local token=${WP_URL_A1#/api/work/previews/} last
  token=${token%/}
  last=${token: -1}
  [[ $last == A ]] && last=B || last=A
  wp_problem "/api/work/previews/${token%?}$last/" preview_link_invalid || return 1
  # B's signature over A's claims
  wp_problem "/api/work/previews/${token%%.*}.${WP_URL_B##*.}" preview_link_invalid
}

wp_expired() { # signs A's claims with an expiry in the past, with the stack's own key
  local token=${WP_URL_A1#/api/work/previews/} expired
  expired=$(python3 - "$1" "${token%%.*}" <<'PY'
import base64, hashlib, hmac, sys
key = open(sys.argv[1]).read().strip().encode()
pad = lambda s: s + "=" * (-len(s) % 4)
task, gen, _, owner = base64.urlsafe_b64decode(pad(sys.argv[2])).decode().split("\n", 3)
payload = base64.urlsafe_b64encode(f"{task}\n{gen}\n1000\n{owner}".encode()).decode().rstrip("=")
sig = base64.urlsafe_b64encode(hmac.new(key, payload.encode(), hashlib.sha256).digest()).decode().rstrip("=")
print(payload + "." + sig)
PY
) || return 1
  wp_problem "/api/work/previews/$expired/" preview_link_expired
}

wp_stop_revokes() {
  wa_call POST "/api/work/tasks/$WP_A/preview/stop" "$WA_ADMIN" && wa_expect 200 || return 1
  sleep 1.2 # the proxy reuses a check for at most 1 s
  wp_problem "$WP_URL_A1" preview_revoked
}

wp_restart() {
  WP_URL_A2=$(wp_start "$WP_A") || return 1
  [[ $WP_URL_A2 != "$WP_URL_A1" ]] || { echo "the restart reissued the same URL"; return 1; }
  # A restart: stop, then start again (a start while one runs is 409 already_exists).
  wa_call POST "/api/work/tasks/$WP_A/preview/stop" "$WA_ADMIN" && wa_expect 200 || return 1
  WP_URL_A3=$(wp_start "$WP_A") || return 1
  sleep 1.2
  wp_problem "$WP_URL_A1" preview_revoked || return 1
  wp_problem "$WP_URL_A2" preview_revoked || return 1
  [[ $(wp_get "$WP_URL_A3" a3) == 200 ]] && grep -q 'preview of a' "$WP_DIR/a3.b"
}

wp_delete() {
  wa_call DELETE "/api/work/tasks/$WP_A" "$WA_ADMIN" && wa_expect 200 || return 1
  wa_call DELETE "/api/work/tasks/$WP_B" "$WA_ADMIN" && wa_expect 200
}
