#!/usr/bin/env bash
# Keeps one service running: starts COMMAND, and when it exits without being asked to (a crash,
# an out-of-memory exit, kill -9) starts it again after a backoff (1, 2, 4 … 30 s; back to 1 s once
# a run lasted a minute). Each restart is counted in RUN_DIR/NAME.restarts ("<count> <UTC time>
# <reason>"), and the crashed run's log is kept as LOG_DIR/NAME.crashed.log. TERM stops the
# service and this supervisor; the service's pid is always in RUN_DIR/NAME.pid.
# Usage: supervise.sh NAME RUN_DIR LOG_DIR COMMAND...
set -u
name=$1 run=$2 logs=$3
shift 3
log=$logs/$name.log
child=
stopping=

stop() {
  stopping=1
  [[ -n $child ]] && kill -TERM "$child" 2>/dev/null
}
trap stop TERM INT

restarts=0 backoff=1
[[ -s $run/$name.restarts ]] && read -r restarts _ <"$run/$name.restarts"
while :; do
  started=$SECONDS
  "$@" >>"$log" 2>&1 </dev/null &
  child=$!
  echo "$child" >"$run/$name.pid"
  wait "$child"
  rc=$?
  # wait returns early when a trapped TERM arrives; wait again for the service's own end.
  while kill -0 "$child" 2>/dev/null; do
    wait "$child"
    rc=$?
  done
  [[ -n $stopping ]] && exit 0
  if ((rc > 128)); then reason="killed by signal $((rc - 128))"; else reason="exited with code $rc"; fi
  restarts=$((restarts + 1))
  printf '%d %s %s\n' "$restarts" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$reason" >"$run/$name.restarts"
  mv -f "$log" "$logs/$name.crashed.log" 2>/dev/null
  ((SECONDS - started >= 60)) && backoff=1
  printf '%s supervisor: %s %s; restart %d in %d s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$name" "$reason" "$restarts" "$backoff" >>"$log"
  sleep "$backoff" &
  wait $!
  [[ -n $stopping ]] && exit 0
  backoff=$((backoff * 2 > 30 ? 30 : backoff * 2))
done
