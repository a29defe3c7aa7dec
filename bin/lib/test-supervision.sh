# shellcheck shell=bash
# The launcher supervises (issue 23): a service killed with kill -9 is restarted by its supervisor,
# ready again within 15 s with no operator action, and the restart is counted and shown by status.
# Sourced after bin/lib/test.sh; defines functions only.
#
#   wt_supervision_checks STATE STACK...   STATE: the stack's state folder; STACK: the command that drives it

wt_supervision_checks() {
  local state=$1 svc
  shift
  for svc in "${WC_SERVICES[@]}"; do
    wt_check "supervision: kill -9 of $svc: ready again within 15 s without an operator, the restart counted in status" \
      wt_sup_kill_recovers "$state" "$svc" "$@"
  done
}

wt_sup_kill_recovers() {
  local state=$1 svc=$2 pid before start line
  shift 2
  pid=$(<"$state/run/$svc.pid") || return 1
  before=0
  [[ -s $state/run/$svc.restarts ]] && read -r before _ <"$state/run/$svc.restarts"
  kill -9 "$pid" || return 1
  start=$SECONDS
  wt_runs_wait 15 wt_sup_ready_again "$state" "$svc" "$pid" "$@" || { "$@" status; return 1; }
  echo "$svc ready again after $((SECONDS - start)) s"
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
