#!/usr/bin/env bash
# Soak (issue 23): mixed traffic from 20 users for 10 minutes against a running stack — Open Terminal
# writes, reads, commands and listings, and a Work task whose agent runs (the fixture model) are
# followed on their event stream — with each JVM's RSS against its warm value, throughput, p50/p99
# per operation and the answers by status; writes bench/soak/results.md.
# The stack must run with the fixture model: WORK_OLLAMA_URL=http://127.0.0.1:18499 bin/workcell up
# (this script starts the fixture there if nothing answers). Arguments pass on to soak.py
# (--users N, --minutes M, --warmup S). Run it once, not in a loop: the machine is shared.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
eval "$("$ROOT/bin/workcell" env)"
state=${WORKCELL_STATE:-$ROOT/.workcell}
if ! curl -sf -o /dev/null http://127.0.0.1:18499/api/version; then
  python3 "$ROOT/bin/lib/e2e/runs_ollama_fixture.py" --port 18499 >>"$state/logs/soak-model.log" 2>&1 &
  model=$!
  trap 'kill "$model" 2>/dev/null || true' EXIT
  sleep 1
fi
python3 "$ROOT/bench/soak/soak.py" "$WORKCELL_URL" "$WORKCELL_ADMIN_TOKEN" "$WORKCELL_TERMINAL_SERVER_KEY" \
  "$state/run" "$ROOT/bench/soak/results.md" "$@"
