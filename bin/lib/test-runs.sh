# shellcheck shell=bash
# Runs end honestly, end to end on a real stack (issues 4 and 6): a run whose agent-runner is
# killed mid-command becomes failed (runner_lost), its live stream ends with done, its sandbox is
# stopped, and its files survive. Sourced after bin/lib/test.sh (reports through wt_check);
# defines functions only.
#
#   wt_runs_model_start                          the fixture model server (bin/lib/e2e/runs_ollama_fixture.py)
#   wt_runner_crash_checks URL TOKEN STATE STACK...
#       URL/TOKEN: the stack's API and an admin token (the checks mint a fresh user's); STATE: its state folder; STACK: the command
#       that drives it (e.g. env WORKCELL_STATE=… WORKCELL_PORT_BASE=… bin/workcell). task-service
#       and agent-runner are restarted with the fixture model and a short lease.
#   wt_runs_model_stop

WT_RUNS_MODEL_PORT=${WT_RUNS_MODEL_PORT:-18499}
WT_RUNS_LEASE=${WT_RUNS_LEASE:-6s}
WT_RUNS_DIR=
WT_RUNS_TASK=
WT_RUNS_RUN=
WT_RUNS_SSE_PID=

wt_runs_model_url() { printf 'http://127.0.0.1:%s\n' "$WT_RUNS_MODEL_PORT"; }

wt_runs_model_start() {
  wt_fixture_start runs-model "$WC_RUN" "$(wt_runs_model_url)/api/version" \
    "$ROOT/bin/lib/e2e/runs_ollama_fixture.py" --port "$WT_RUNS_MODEL_PORT"
}

wt_runs_model_stop() { wc_stop_pid runs-model "$WC_RUN/runs-model.pid"; }

# wt_runs_wait SECONDS CMD... — retries CMD every half second until it succeeds or time runs out.
wt_runs_wait() {
  local limit=$1 start=$SECONDS
  shift
  until "$@"; do
    ((SECONDS - start < limit)) || return 1
    sleep 0.5
  done
}

wt_runner_crash_checks() {
  local url=$1 admin_token=$2 state=$3 token
  shift 3
  local -a stack=("$@")
  local -a env=(env "WORK_OLLAMA_URL=$(wt_runs_model_url)" "WORKCELL_TASK_RUN_LEASE=$WT_RUNS_LEASE"
    WORKCELL_TASK_LEASE_SWEEP_INTERVAL=1s WORKCELL_AGENT_LEASE_HEARTBEAT=2s)
  WT_RUNS_DIR=$(mktemp -d)
  trap '[[ -n $WT_RUNS_SSE_PID ]] && kill "$WT_RUNS_SSE_PID" 2>/dev/null; rm -rf "$WT_RUNS_DIR"' RETURN

  wt_check "runs: the fixture model server answers" wt_runs_model_start
  wt_check "runs: task-service and agent-runner restart with the fixture model and a $WT_RUNS_LEASE lease" \
    wt_runs_restart "$state" "${env[@]}" "${stack[@]}"
  # A fresh admin account (Work may be closed to users): the per-user runtime cap never meets earlier sandboxes.
  token=$("${stack[@]}" token --user "runs-$$-$RANDOM" --role admin) || token=$admin_token
  wt_check "runs: a task's run writes notes.txt, then its sleep 120 runs in the sandbox" wt_runs_command_running "$url" "$token"
  wt_check "runs: kill -9 of agent-runner mid-command leaves the run failed (runner_lost), never running" \
    wt_runs_killed_runner_fails "$url" "$token" "$state"
  wt_check "runs: the run's live stream ends with done (failed)" wt_runs_stream_ended
  wt_check "runs: the task's sandbox container is stopped" wt_runs_wait 60 wt_runs_sandbox_stopped
  wt_check "runs: after up brings agent-runner back, notes.txt is still readable" \
    wt_runs_files_kept "$url" "$token" "$state" "${env[@]}" "${stack[@]}"
  wt_runs_model_stop
}

# Restarts the two services that read the fixture URL and the lease at start; up starts only what is down.
wt_runs_restart() {
  local state=$1 svc
  shift
  for svc in agent-runner-service task-service; do
    wc_stop_service "$svc" "$state/run"
  done
  "$@" up
}

wt_runs_command_running() {
  local url=$1 token=$2 created container
  created=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"message":"Write notes.txt, then run the long job.","provider":"ollama","model":"runs-crash"}' "$url/api/work/tasks") || return 1
  WT_RUNS_TASK=$(wt_json task.id <<<"$created")
  WT_RUNS_RUN=$(wt_json run.id <<<"$created")
  [[ -n $WT_RUNS_TASK && -n $WT_RUNS_RUN ]] || return 1
  echo "task $WT_RUNS_TASK run $WT_RUNS_RUN"
  curl -s -N --max-time 300 -H "Authorization: Bearer $token" \
    "$url/api/work/tasks/$WT_RUNS_TASK/runs/$WT_RUNS_RUN/events" >"$WT_RUNS_DIR/events" 2>/dev/null &
  WT_RUNS_SSE_PID=$!
  wt_runs_wait 90 grep -q '"name":"run_command"' "$WT_RUNS_DIR/events" || { cat "$WT_RUNS_DIR/events"; return 1; }
  wt_runs_wait 60 wt_runs_sleep_in_sandbox || return 1
  container=$(docker ps -q --filter "label=dev.workcell.task=$WT_RUNS_TASK")
  echo "container $container runs: $(docker top "$container" 2>/dev/null | grep -o 'sleep 120$' | head -n 1)"
}

wt_runs_sleep_in_sandbox() {
  local container
  container=$(docker ps -q --filter "label=dev.workcell.task=$WT_RUNS_TASK")
  [[ -n $container ]] && docker top "$container" 2>/dev/null | grep -q ' sleep 120$'
}

wt_runs_killed_runner_fails() {
  local url=$1 token=$2 state=$3 pid detail
  pid=$(<"$state/run/agent-runner-service.pid") || return 1
  kill -9 "$pid" || return 1
  echo "killed agent-runner $pid"
  wt_runs_wait 60 wt_runs_run_state_is failed "$url" "$token" || return 1
  detail=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$WT_RUNS_TASK") || return 1
  echo "run ended: $(wt_json latestRun.reason <<<"$detail")"
  [[ $(wt_json latestRun.reason <<<"$detail") == runner_lost* ]] && [[ $(wt_json task.state <<<"$detail") == failed ]]
}

wt_runs_run_state_is() {
  local want=$1 url=$2 token=$3 state
  state=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$WT_RUNS_TASK" | wt_json latestRun.state)
  echo "run state: $state"
  [[ $state == "$want" ]]
}

wt_runs_stream_ended() {
  local i
  for ((i = 0; i < 60; i++)); do
    kill -0 "$WT_RUNS_SSE_PID" 2>/dev/null || break
    sleep 0.5
  done
  ! kill -0 "$WT_RUNS_SSE_PID" 2>/dev/null || return 1
  WT_RUNS_SSE_PID=
  grep '^event:' "$WT_RUNS_DIR/events" | tr '\n' ' '
  echo
  [[ $(grep '^event:' "$WT_RUNS_DIR/events" | tail -n 1) == event:done ]] \
    && grep '"type":"done"' "$WT_RUNS_DIR/events" | grep -q '"state":"failed"'
}

wt_runs_sandbox_stopped() {
  local states
  states=$(docker ps -a --filter "label=dev.workcell.task=$WT_RUNS_TASK" --format '{{.State}}')
  echo "sandbox: ${states:-none}"
  [[ -n $states && $states != *running* ]]
}

wt_runs_files_kept() {
  local url=$1 token=$2 state=$3 body
  shift 3
  "$@" up || return 1
  wc_pid_alive "$state/run/agent-runner-service.pid" || return 1
  body=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$WT_RUNS_TASK/file?path=notes.txt") || return 1
  echo "notes.txt: $body"
  [[ $(wt_json content <<<"$body") == "Notes written by the runs fixture model." ]]
}
