#!/usr/bin/env bash
# Soak (issue 23): mixed traffic from 20 users for 10 minutes against a real stack — Open Terminal and
# Work API file writes, reads and listings of 4 KB and ~1 MB files, commands, agent runs of the fixture
# model followed on their SSE event stream, a terminal WebSocket — with each JVM's RSS against its
# warm value, the heap after a full GC at warm and at the end, throughput, p50/p99 per operation and
# the answers by status. Writes bench/soak/results.json and the top of bench/soak/results.md.
#
#   bench/soak/run.sh [--minutes 1] [--warmup 20] [--kill sandbox-service] [soak.py options...]
#
# Starts a stack of its own (state .workcell/bench-soak, ports from 9780, PostgreSQL 15437, NATS
# 14227, the fixture model on 18597, sandboxes of 512 MiB) and stops it at the end; SOAK_STACK=running
# uses the stack `bin/workcell env` describes instead (it must run with WORK_OLLAMA_URL pointing at
# bin/lib/e2e/runs_ollama_fixture.py). Run it once, not in a loop: the machine is shared.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
wc() { "$ROOT/bin/workcell" "$@"; }
model_port=${SOAK_MODEL_PORT:-18597}
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [[ ${SOAK_STACK:-own} == own ]]; then
    # The sandboxes this stack made (its instance label), so no container outlives the bench; first,
    # while the stack's Docker engine still runs.
    docker ps -aq --filter "label=dev.workcell.instance=stack-$WORKCELL_PORT_BASE" | xargs -r docker rm -f >/dev/null 2>&1 || true
    wc down >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

if [[ ${SOAK_STACK:-own} == own ]]; then
  export WORKCELL_STATE=$ROOT/.workcell/bench-soak WORKCELL_PORT_BASE=${SOAK_PORT_BASE:-9780} WORKCELL_PG_PORT=15437 \
    WORKCELL_NATS_PORT=14227 WORKCELL_NATS_MONITOR_PORT=18227
  # Room for every user's sandbox: the default global cap (3 running task sandboxes) would refuse
  # some of the 5 Work users for the whole soak (429 too_many_runtimes) instead of serving them.
  export WORK_OLLAMA_URL=http://127.0.0.1:$model_port WORK_MEMORY_LIMIT=${WORK_MEMORY_LIMIT:-512m} \
    WORK_MAX_ACTIVE_RUNTIMES_GLOBAL=${WORK_MAX_ACTIVE_RUNTIMES_GLOBAL:-8}
fi
state=${WORKCELL_STATE:-$ROOT/.workcell}
mkdir -p "$state/logs"
if ! curl -sf -o /dev/null "http://127.0.0.1:$model_port/api/version"; then
  python3 "$ROOT/bin/lib/e2e/runs_ollama_fixture.py" --port "$model_port" >>"$state/logs/soak-model.log" 2>&1 &
  pids+=($!)
fi
if [[ ${SOAK_STACK:-own} == own ]]; then
  echo "starting a stack of its own (log: $state/up.log)" >&2
  wc up >"$state/up.log" 2>&1 || { tail -n 30 "$state/up.log" >&2; exit 1; }
fi
eval "$(wc env)"
python3 "$ROOT/bench/soak/soak.py" "$WORKCELL_URL" "$WORKCELL_ADMIN_TOKEN" "$WORKCELL_TERMINAL_SERVER_KEY" \
  "$state/run" "$ROOT/bench/soak/results.md" --json "$ROOT/bench/soak/results.json" "$@"
