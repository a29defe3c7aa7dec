# shellcheck shell=bash
# A model's whole run on every provider route, end to end on a real stack (issue 6): fixture servers
# speaking Ollama, OpenAI-compatible, Anthropic and Gemini streaming wire formats
# (bin/lib/e2e/routes_fixture.py) are registered as admin providers; on each route a model writes
# index.html, runs ls, starts the preview and answers. The run's SSE stream shows the events in
# order, the file reads back through the files API, the task is completed, and a follow-up run sees
# the earlier conversation and files. Sourced after bin/lib/test.sh (reports through wt_check);
# defines functions only. Restarts no service.
#
#   wt_agent_route_checks URL ADMIN_TOKEN STATE STACK...
#       URL/ADMIN_TOKEN: the stack's API and an admin token (providers are registered with it; each
#       route runs as a fresh admin account of its own); STATE: the stack's state folder; STACK: the
#       command that drives it (token minting).

WT_ROUTES_MODEL_PORT=${WT_ROUTES_MODEL_PORT:-18498}
WT_ROUTES_KINDS=(ollama openai anthropic gemini)
WT_ROUTES_FIRST="Write index.html, list the workspace, start the preview, then tell me what ls showed."
WT_ROUTES_SECOND="Is the page from before still there?"
WT_ROUTES_DIR=
WT_ROUTES_RUN_DIR=
declare -A WT_ROUTES_KEY=()
WT_ROUTES_TASK=
WT_ROUTES_RUN=

wt_routes_fixture_url() { printf 'http://127.0.0.1:%s\n' "$WT_ROUTES_MODEL_PORT"; }

wt_routes_fixture_start() {
  wt_fixture_start routes-model "$WT_ROUTES_RUN_DIR" "$(wt_routes_fixture_url)/" \
    "$ROOT/bin/lib/e2e/routes_fixture.py" --port "$WT_ROUTES_MODEL_PORT"
}

wt_routes_fixture_stop() { wc_stop_pid routes-model "$WT_ROUTES_RUN_DIR/routes-model.pid"; }

# The base URL each adapter appends its paths to (README of agent-runner-service: "Base URLs").
wt_routes_base_url() {
  case $1 in
    openai) printf '%s/openai/v1\n' "$(wt_routes_fixture_url)" ;;
    *) printf '%s/%s\n' "$(wt_routes_fixture_url)" "$1" ;;
  esac
}

# The credential header each kind sends, and its exact value for KEY.
wt_routes_key_header() {
  case $1 in
    ollama | openai) echo Authorization ;;
    anthropic) echo x-api-key ;;
    gemini) echo x-goog-api-key ;;
  esac
}

wt_routes_key_value() {
  case $1 in
    ollama | openai) printf 'Bearer %s\n' "$2" ;;
    *) printf '%s\n' "$2" ;;
  esac
}

wt_routes_register() {
  local url=$1 token=$2 kind status
  for kind in "${WT_ROUTES_KINDS[@]}"; do
    WT_ROUTES_KEY[$kind]="routes-key-$kind-$RANDOM$RANDOM"
    status=$(curl -s -o "$WT_ROUTES_DIR/put-$kind" -w '%{http_code}' -X PUT -H "Authorization: Bearer $token" \
      -H 'Content-Type: application/json' \
      -d '{"kind":"'"$kind"'","baseUrl":"'"$(wt_routes_base_url "$kind")"'","apiKey":"'"${WT_ROUTES_KEY[$kind]}"'"}' \
      "$url/api/work/admin/providers/routes-$kind")
    echo "PUT routes-$kind -> $status $(cat "$WT_ROUTES_DIR/put-$kind")"
    [[ $status == 200 || $status == 201 ]] || return 1
    grep -q '"hasApiKey":true' "$WT_ROUTES_DIR/put-$kind" || return 1
  done
}

wt_routes_unregister() {
  local url=$1 token=$2 kind
  for kind in "${WT_ROUTES_KINDS[@]}"; do
    curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $token" "$url/api/work/admin/providers/routes-$kind"
  done
}

# wt_routes_follow URL TOKEN FILE — the run's SSE stream into FILE, until the gateway ends it after done.
wt_routes_follow() {
  curl -s -N --max-time 240 -H "Authorization: Bearer $2" \
    "$1/api/work/tasks/$WT_ROUTES_TASK/runs/$WT_ROUTES_RUN/events" >"$3" 2>/dev/null
  [[ $(grep '^event:' "$3" | tail -n 1) == event:done ]] || { echo "the stream ended without done:"; cat "$3"; return 1; }
}

wt_routes_first_run() {
  local url=$1 token=$2 kind=$3 model=$4 created
  created=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"message":"'"$WT_ROUTES_FIRST"'","provider":"'"$kind"'","providerId":"routes-'"$kind"'","model":"'"$model"'"}' \
    "$url/api/work/tasks") || return 1
  WT_ROUTES_TASK=$(wt_json task.id <<<"$created")
  WT_ROUTES_RUN=$(wt_json run.id <<<"$created")
  echo "task $WT_ROUTES_TASK run $WT_ROUTES_RUN"
  [[ -n $WT_ROUTES_TASK && -n $WT_ROUTES_RUN ]] || return 1
  wt_routes_follow "$url" "$token" "$WT_ROUTES_DIR/$kind-1.sse" || return 1
  python3 "$ROOT/bin/lib/e2e/routes_checks.py" events "$WT_ROUTES_DIR/$kind-1.sse" write_file run_command start_preview
}

wt_routes_file_readable() {
  local url=$1 token=$2 body
  body=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$WT_ROUTES_TASK/file?path=index.html") || return 1
  echo "index.html: $body"
  # Not `| grep -q`: grep leaving early breaks wt_json's pipe, and pipefail fails the check at random.
  [[ $(wt_json content <<<"$body") == *'<title>Routes fixture page</title>'* ]]
}

wt_routes_completed() {
  local url=$1 token=$2 detail messages
  detail=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$WT_ROUTES_TASK") || return 1
  echo "task $(wt_json task.state <<<"$detail"), run $(wt_json latestRun.state <<<"$detail")"
  [[ $(wt_json task.state <<<"$detail") == completed && $(wt_json latestRun.state <<<"$detail") == completed ]] || return 1
  # The stored answer names what the model saw in the ls tool result.
  messages=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$WT_ROUTES_TASK/messages") || return 1
  grep -o 'Done. ls listed: [^"]*' <<<"$messages" | grep -q 'index.html'
}

wt_routes_follow_up() {
  local url=$1 token=$2 kind=$3 model=$4 started
  started=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"message":"'"$WT_ROUTES_SECOND"'"}' "$url/api/work/tasks/$WT_ROUTES_TASK/runs") || return 1
  WT_ROUTES_RUN=$(wt_json run.id <<<"$started")
  echo "follow-up run $WT_ROUTES_RUN"
  [[ -n $WT_ROUTES_RUN ]] || return 1
  wt_routes_follow "$url" "$token" "$WT_ROUTES_DIR/$kind-2.sse" || return 1
  python3 "$ROOT/bin/lib/e2e/routes_checks.py" events "$WT_ROUTES_DIR/$kind-2.sse" read_file || return 1
  python3 "$ROOT/bin/lib/e2e/routes_checks.py" follow-up "$(wt_routes_fixture_url)" "$model" "$WT_ROUTES_FIRST" "$WT_ROUTES_SECOND"
}

wt_routes_delete_task() {
  local url=$1 token=$2 status left
  [[ -n $WT_ROUTES_TASK ]] || return 1
  status=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE -H "Authorization: Bearer $token" "$url/api/work/tasks/$WT_ROUTES_TASK")
  left=$(docker ps -aq --filter "label=dev.workcell.task=$WT_ROUTES_TASK")
  echo "DELETE task -> $status, containers left: ${left:-none}"
  [[ $status == 200 && -z $left ]]
}

# One route, start to end; the task is deleted even when a check fails, so sandboxes never pile up.
wt_routes_one() {
  local url=$1 token=$2 kind=$3 model="routes-$3-$RANDOM"
  local header
  header=$(wt_routes_key_header "$kind")
  WT_ROUTES_TASK='' WT_ROUTES_RUN=''
  wt_check "routes: $kind: the run streams run_state running, write_file, run_command, start_preview (each tool_call then its ok tool_result), the answer, run_state completed, done" \
    wt_routes_first_run "$url" "$token" "$kind" "$model"
  if [[ -n $WT_ROUTES_TASK ]]; then
    wt_check "routes: $kind: index.html reads back through the files API" wt_routes_file_readable "$url" "$token"
    wt_check "routes: $kind: the task is completed and the stored answer names what ls listed" wt_routes_completed "$url" "$token"
    wt_check "routes: $kind: the fixture saw four rounds; the last carried the three tool results" \
      python3 "$ROOT/bin/lib/e2e/routes_checks.py" first-run "$(wt_routes_fixture_url)" "$model"
    wt_check "routes: $kind: a follow-up run sees the earlier conversation and index.html, and completes" \
      wt_routes_follow_up "$url" "$token" "$kind" "$model"
  fi
  wt_check "routes: $kind: every request carried the admin provider's key in $header" \
    python3 "$ROOT/bin/lib/e2e/routes_checks.py" keys "$(wt_routes_fixture_url)" "$model" "$header" \
    "$(wt_routes_key_value "$kind" "${WT_ROUTES_KEY[$kind]}")"
  wt_check "routes: $kind: deleting the task removes its sandbox (preview included)" wt_routes_delete_task "$url" "$token"
}

wt_agent_route_checks() {
  local url=$1 admin_token=$2 state=$3 kind token
  shift 3
  local -a stack=("$@")
  WT_ROUTES_DIR=$(mktemp -d)
  WT_ROUTES_RUN_DIR=$state/run
  wt_check "routes: the four-provider fixture answers" wt_routes_fixture_start
  wt_check "routes: four admin providers (ollama, openai, anthropic, gemini) are registered with keys" \
    wt_routes_register "$url" "$admin_token"
  for kind in "${WT_ROUTES_KINDS[@]}"; do
    # A fresh admin account per route (Work may be closed to users); its task is deleted before the next.
    token=$("${stack[@]}" token --user "routes-$kind-$$-$RANDOM" --role admin) || token=$admin_token
    wt_routes_one "$url" "$token" "$kind"
  done
  wt_routes_unregister "$url" "$admin_token"
  wt_routes_fixture_stop
  rm -rf "$WT_ROUTES_DIR"
}
