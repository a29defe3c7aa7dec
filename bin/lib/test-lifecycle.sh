# shellcheck shell=bash
# The Work runtime lifecycle end to end on a real stack (issue 25): finished work gives its sandbox
# slot back, runs wait at the door instead of spending model rounds on a cap, previews keep their
# sandbox, and the seed's command timeout reaches the model's commands. Sourced after
# bin/lib/test.sh and bin/lib/test-runs.sh (the fixture model server); defines functions only.
#
#   wt_lifecycle_checks URL STATE STACK...
#       URL: the stack's API; STATE: its state folder; STACK: the command that drives it. sandbox-service
#       and agent-runner are restarted with a global cap of 2, WORK_COMMAND_TIMEOUT_MS=2000 and the
#       fixture model; fresh admin accounts run the tasks.

WT_LIFE_STOPPED_WITHIN=10 # seconds after a run's end by which its sandbox must be stopped
WT_LIFE_DIR=

wt_lifecycle_checks() {
  local url=$1 state=$2 token
  shift 2
  local -a stack=("$@")
  local -a env=(env "WORK_OLLAMA_URL=$(wt_runs_model_url)" WORK_MAX_ACTIVE_RUNTIMES_GLOBAL=2 WORK_COMMAND_TIMEOUT_MS=2000)
  WT_LIFE_DIR=$(mktemp -d)

  wt_check "lifecycle: the fixture model server answers" wt_runs_model_start
  wt_check "lifecycle: sandbox-service and agent-runner restart with a global cap of 2 and a 2 s command timeout" \
    wt_life_restart "$state" "${env[@]}" "${stack[@]}"
  token=$("${stack[@]}" token --user "life-$$-$RANDOM" --role admin) || return 1
  wt_check "lifecycle: one user runs five tasks in a row; each completes, its file is readable, its sandbox stops within ${WT_LIFE_STOPPED_WITHIN} s" \
    wt_life_five_in_a_row "$url" "$token"
  wt_check "lifecycle: a preview keeps its sandbox running past the grace until it is stopped" \
    wt_life_preview_keeps "$url" "$token"
  wt_check "lifecycle: three users start runs at once with a global cap of 2; one waits in line, all complete, no tool meets the cap" \
    wt_life_three_at_once "$url" "${stack[@]}"
  wt_check "lifecycle: WORK_COMMAND_TIMEOUT_MS=2000 times out a model's sleep 10" wt_life_command_timeout "$url" "$token"
  wt_check "lifecycle: capabilities report the cap of 2 and a free instance after all this" \
    wt_life_capabilities_free "$url" "$token"
  wt_check "capacity: sandbox-service restarts with a memory budget of 3g (one 2g sandbox fits) and an eviction minimum of 5 s" \
    wt_life_restart "$state" "${env[@]}" WORKCELL_SANDBOX_MEMORY_BUDGET=3g WORKCELL_SANDBOX_EVICTION_MIN_IDLE=5s "${stack[@]}"
  wt_check "capacity: a second home is refused (429 runtime_capacity) while the first was used within 5 s, then stops it; with the running home busy the first answers 429" \
    wt_life_capacity "$url" "$token" "$(cat "$state/secrets/terminal-server-key")"
  wt_check "capacity: sandbox-service restarts with the default memory budget" \
    wt_life_restart "$state" "${env[@]}" "${stack[@]}"
  rm -rf "$WT_LIFE_DIR"
}

wt_life_restart() {
  local state=$1 svc
  shift
  for svc in agent-runner-service sandbox-service; do
    wc_stop_service "$svc" "$state/run"
  done
  "$@" up
}

# wt_life_task URL TOKEN MODEL — creates a task with MODEL; prints its id.
wt_life_task() {
  local created
  created=$(curl -sf -X POST -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
    -d "{\"message\":\"Do your step.\",\"provider\":\"ollama\",\"model\":\"$3\"}" "$1/api/work/tasks") || return 1
  wt_json task.id <<<"$created"
}

# wt_life_await_end URL TOKEN TASK SECONDS — waits until the task's latest run is final; prints its state.
wt_life_await_end() {
  local url=$1 token=$2 task=$3 limit=$4 start=$SECONDS detail run_state
  while ((SECONDS - start < limit)); do
    detail=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$task") || return 1
    run_state=$(wt_json latestRun.state <<<"$detail")
    case $run_state in
      completed | needs_input | failed | cancelled)
        echo "task $task: run $run_state ($(wt_json latestRun.reason <<<"$detail"))" >&2
        printf '%s\n' "$run_state"
        return 0 ;;
    esac
    sleep 0.25
  done
  echo "task $task: run still $run_state after $limit s" >&2
  return 1
}

wt_life_container_state() {
  docker ps -a --filter "label=dev.workcell.task=$1" --format '{{.State}}'
}

# wt_life_stopped_within TASK SECONDS — the task's sandbox container is not running within SECONDS.
wt_life_stopped_within() {
  local task=$1 limit=$2 start=$SECONDS
  while [[ $(wt_life_container_state "$task") == *running* ]]; do
    ((SECONDS - start < limit)) || { echo "sandbox of $task still running after $limit s" >&2; return 1; }
    sleep 0.25
  done
  echo "sandbox of $task: $(wt_life_container_state "$task") after $((SECONDS - start)) s" >&2
}

wt_life_five_in_a_row() {
  local url=$1 token=$2 i task model body
  for i in 1 2 3 4 5; do
    model="life-$i-$RANDOM"
    task=$(wt_life_task "$url" "$token" "$model") || return 1
    [[ $(wt_life_await_end "$url" "$token" "$task" 90) == completed ]] || return 1
    body=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$task/file?path=result.txt") || return 1
    [[ $(wt_json content <<<"$body") == "made by $model" ]] || { echo "result.txt of $task: $body"; return 1; }
    wt_life_stopped_within "$task" "$WT_LIFE_STOPPED_WITHIN" || return 1
  done
}

wt_life_preview_keeps() {
  local url=$1 token=$2 task
  task=$(wt_life_task "$url" "$token" "preview-$RANDOM") || return 1
  [[ $(wt_life_await_end "$url" "$token" "$task" 90) == completed ]] || return 1
  sleep "$WT_LIFE_STOPPED_WITHIN"
  [[ $(wt_life_container_state "$task") == running ]] || { echo "the preview's sandbox stopped"; return 1; }
  curl -sf -X POST -H "Authorization: Bearer $token" "$url/api/work/tasks/$task/preview/stop" || return 1
  echo
  wt_life_stopped_within "$task" "$WT_LIFE_STOPPED_WITHIN"
}

# Three fresh users (so the per-user cap of 2 is no factor) start a run each at the same moment; each
# run's live stream is followed from its start, since a finished run's stream replays no events.
wt_life_three_at_once() {
  local url=$1 i task run ended=0 waited=0
  shift
  local -a tokens=() tasks=() creating=() streams=()
  for i in 1 2 3; do
    tokens+=("$("$@" token --user "life-many-$i-$$-$RANDOM" --role admin)") || return 1
  done
  for i in 0 1 2; do
    curl -sf -X POST -H "Authorization: Bearer ${tokens[$i]}" -H 'Content-Type: application/json' \
      -d "{\"message\":\"Do your step.\",\"provider\":\"ollama\",\"model\":\"slow-$i-$RANDOM\"}" \
      "$url/api/work/tasks" >"$WT_LIFE_DIR/created-$i" &
    creating+=($!)
  done
  wait "${creating[@]}" # only these: the fixture model server is a child too
  for i in 0 1 2; do
    task=$(wt_json task.id <"$WT_LIFE_DIR/created-$i")
    run=$(wt_json run.id <"$WT_LIFE_DIR/created-$i")
    [[ -n $task && -n $run ]] || return 1
    tasks+=("$task")
    curl -s -N --max-time 120 -H "Authorization: Bearer ${tokens[$i]}" "$url/api/work/tasks/$task/runs/$run/events" \
      >"$WT_LIFE_DIR/events-$i" 2>/dev/null &
    streams+=($!)
  done
  for i in 0 1 2; do
    [[ $(wt_life_await_end "$url" "${tokens[$i]}" "${tasks[$i]}" 120) == completed ]] && ended=$((ended + 1))
    # The model's view: no tool result speaks of runtime caps.
    if curl -sf -H "Authorization: Bearer ${tokens[$i]}" "$url/api/work/tasks/${tasks[$i]}/messages?limit=50" \
      | grep -q 'too_many_runtimes'; then
      echo "task ${tasks[$i]}: a message mentions too_many_runtimes"
      return 1
    fi
  done
  wait "${streams[@]}" # each stream ends with its run's done event
  for i in 0 1 2; do
    grep -q '"awaiting":"runtime"' "$WT_LIFE_DIR/events-$i" && waited=$((waited + 1))
  done
  echo "$ended of 3 runs completed, $waited waited in line for a slot"
  ((ended == 3 && waited >= 1))
}

wt_life_command_timeout() {
  local url=$1 token=$2 task start=$SECONDS messages
  task=$(wt_life_task "$url" "$token" "timeout-$RANDOM") || return 1
  [[ $(wt_life_await_end "$url" "$token" "$task" 60) == completed ]] || return 1
  messages=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$task/messages?limit=50") || return 1
  echo "run took $((SECONDS - start)) s"
  grep -o 'exit code [0-9-]* (timed out)' <<<"$messages" | head -n 1
  grep -q '(timed out)' <<<"$messages"
}

wt_life_capabilities_free() {
  local caps
  caps=$(curl -sf -H "Authorization: Bearer $2" "$1/api/work/capabilities") || return 1
  echo "runtime: $(wt_json runtime <<<"$caps")"
  [[ $(wt_json runtime.globalCap <<<"$caps") == 2 && $(wt_json runtime.available <<<"$caps") == True ]] \
    && wt_runs_wait 15 wt_life_instance_idle "$1" "$2"
}

wt_life_instance_idle() {
  [[ $(curl -sf -H "Authorization: Bearer $2" "$1/api/work/capabilities" | wt_json runtime.globalActive) == 0 ]]
}

# wt_life_capacity URL TOKEN KEY — through the Open Terminal API, with a budget of one 2g sandbox and
# an eviction minimum of 5 s: home A runs; home B's start is refused while A was used within 5 s (its
# user is at work; Retry-After: when A may be stopped), then stops the quiet A (its volume kept) and
# runs; with a process keeping B busy, A's requests are refused with 429 runtime_capacity, Retry-After
# within 5 s while B was just used and 30 once a start has found B's process; then B's process ends.
wt_life_capacity() {
  local url=$1 token=$2 key=$3 a="cap-a-$$-$RANDOM" b="cap-b-$$-$RANDOM" caps process answer code
  local term=$url/api/open-terminal
  curl -sf -X POST -H "Authorization: Bearer $key" -H "X-User-Id: $a" -H 'Content-Type: application/json' \
    -d '{"path":"kept.txt","content":"a was here"}' "$term/files/write" >/dev/null || return 1
  [[ $(wt_life_home_state "$a") == running ]] || { echo "home A is not running"; return 1; }
  caps=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/capabilities") || return 1
  echo "runtime.memory: $(wt_json runtime.memory <<<"$caps")"
  [[ $(wt_json runtime.memory.budgetBytes <<<"$caps") == $((3 << 30)) ]] || { echo "the budget is not 3g"; return 1; }
  answer=$(curl -s -D "$WT_LIFE_DIR/capacity-headers" -H "Authorization: Bearer $key" -H "X-User-Id: $b" "$term/files/list")
  echo "B while A was used within 5 s: $(wt_life_status) $answer; $(wt_life_retry_after)"
  [[ $(wt_life_status) == 429 && $(wt_json code <<<"$answer") == runtime_capacity && $answer == *"used in the last 5 s"* ]] \
    || { echo "B's start did not wait for A to be quiet"; return 1; }
  [[ $(wt_life_retry_after) =~ ^[1-5]$ ]] || { echo "Retry-After is not when A may be stopped (within 5 s)"; return 1; }
  [[ $(wt_life_home_state "$a") == running ]] || { echo "A was stopped while in use"; return 1; }
  sleep 6
  curl -sf -H "Authorization: Bearer $key" -H "X-User-Id: $b" "$term/files/list" >/dev/null || return 1
  echo "after B's start: A $(wt_life_home_state "$a"), B $(wt_life_home_state "$b")"
  [[ $(wt_life_home_state "$a") != running && $(wt_life_home_state "$b") == running ]] || return 1
  process=$(curl -sf -X POST -H "Authorization: Bearer $key" -H "X-User-Id: $b" -H 'Content-Type: application/json' \
    -d '{"command":"sleep 120"}' "$term/execute") || return 1
  # Just used, B may be stopped in 5 s as far as anyone knows; once a start has found its process running,
  # only waiting for it to end helps, and the refusal says the usual 30 s.
  answer=$(curl -s -D "$WT_LIFE_DIR/capacity-headers" -H "Authorization: Bearer $key" -H "X-User-Id: $a" "$term/files/list")
  echo "A while B was just used: $(wt_life_status) $answer; $(wt_life_retry_after)"
  code=$(wt_life_status)/$(wt_life_retry_after)
  sleep 6
  answer=$(curl -s -D "$WT_LIFE_DIR/capacity-headers" -H "Authorization: Bearer $key" -H "X-User-Id: $a" "$term/files/list")
  echo "A while B runs its process: $(wt_life_status) $answer; $(wt_life_retry_after)"
  curl -s -X DELETE -H "Authorization: Bearer $key" -H "X-User-Id: $b" "$term/execute/$(wt_json id <<<"$process")?force=true" >/dev/null
  [[ $code =~ ^429/[1-5]$ && $(wt_life_status) == 429 && $(wt_json code <<<"$answer") == runtime_capacity && $(wt_life_retry_after) == 30 ]] \
    && [[ $(wt_life_home_state "$b") == running && $(wt_life_home_state "$a") != running ]]
}

# The last status and Retry-After (empty when absent) in $WT_LIFE_DIR/capacity-headers.
wt_life_status() {
  sed -n 's/^HTTP[^ ]* \([0-9]*\).*/\1/p' "$WT_LIFE_DIR/capacity-headers" | tail -n 1
}

wt_life_retry_after() {
  sed -n 's/^[Rr]etry-[Aa]fter: *\([0-9]*\).*/\1/p' "$WT_LIFE_DIR/capacity-headers" | tail -n 1
}

# wt_life_home_state USER — the state of USER's home container (its label is the sha256 of the user id).
wt_life_home_state() {
  local hash
  hash=$(printf '%s' "$1" | sha256sum | cut -d' ' -f1)
  docker ps -a --filter "label=dev.workcell.home=$hash" --format '{{.State}}'
}
