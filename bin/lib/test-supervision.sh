# shellcheck shell=bash
# The launcher supervises (issue 23): a service killed with kill -9 is restarted by its supervisor,
# ready again within 15 s with no operator action, and the restart is counted and shown by status.
# The kills happen under traffic (bin/lib/e2e/fault_traffic.py): Open Terminal writes and reads and
# an agent run of the fixture model; afterwards no acknowledged write is lost, no request hung and
# no run is left active. Sourced after bin/lib/test.sh and bin/lib/test-runs.sh; defines functions only.
#
#   wt_supervision_checks URL STATE STACK...
#       URL: the stack's API; STATE: its state folder; STACK: the command that drives it. Expects
#       agent-runner configured with the fixture model (wt_runner_crash_checks leaves it so).

wt_supervision_checks() {
  local url=$1 state=$2 svc token traffic stop report
  shift 2
  stop=$(mktemp -u) report=$(mktemp)
  wt_check "supervision: the fixture model server answers" wt_runs_model_start
  token=$("$@" token --user "fault-$$-$RANDOM" --role admin) || return 1
  python3 "$ROOT/bin/lib/e2e/fault_traffic.py" "$url" "$token" "$(cat "$state/secrets/terminal-server-key")" "$stop" \
    >"$report" 2>&1 &
  traffic=$!
  sleep 5 # writes acknowledged and a run under way before the first kill
  for svc in "${WC_SERVICES[@]}"; do
    wt_check "supervision: kill -9 of $svc under traffic: ready again within 15 s without an operator, the restart counted in status" \
      wt_sup_kill_recovers "$state" "$svc" "$@"
  done
  touch "$stop"
  wt_check "supervision: after the kills no acknowledged write is lost, no request hung, no answer was a 500, no run is left active" \
    wt_sup_traffic_report "$traffic" "$report"
  wt_runs_model_stop
  rm -f "$stop" "$report"
}

wt_sup_traffic_report() {
  local rc=0
  wait "$1" || rc=$?
  cat "$2"
  return "$rc"
}

wt_sup_kill_recovers() {
  local state=$1 svc=$2 pid before start line
  shift 2
  pid=$(<"$state/run/$svc.pid") || return 1
  before=0
  [[ -s $state/run/$svc.restarts ]] && read -r before _ <"$state/run/$svc.restarts"
  kill -9 "$pid" || return 1
  start=$SECONDS
  # Waits past the limit, so a slow recovery is measured rather than only refused.
  wt_runs_wait 60 wt_sup_ready_again "$state" "$svc" "$pid" "$@" || { "$@" status; return 1; }
  echo "$svc ready again after $((SECONDS - start)) s"
  ((SECONDS - start <= 15)) || return 1
  line=$("$@" status 2>/dev/null | grep "^$svc ") || true
  echo "$line"
  grep -q "restarted $((before + 1))× (.*killed by signal 9)" <<<"$line"
}

# True once the service runs under a new pid and status calls it ready.
wt_sup_ready_again() {
  local state=$1 svc=$2 old=$3 pid out
  shift 3
  pid=$(cat "$state/run/$svc.pid" 2>/dev/null)
  [[ -n $pid && $pid != "$old" ]] || return 1
  out=$("$@" status 2>/dev/null) || true
  grep -qE "^$svc +ready " <<<"$out"
}
