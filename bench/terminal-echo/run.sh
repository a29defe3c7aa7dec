#!/usr/bin/env bash
# Interactive terminal latency and throughput through a running stack's gateway (Open Terminal's
# terminal WebSocket) against `docker exec -it` into the same sandbox, in one run; writes
# bench/terminal-echo/results.md. Needs a running stack (bin/workcell up; the same WORKCELL_*
# variables for another state folder), python3 and the docker CLI. Run it once: the machine is shared.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
eval "$("$ROOT/bin/workcell" env)"
python3 "$ROOT/bench/terminal-echo/bench.py" "$WORKCELL_URL" "$WORKCELL_TERMINAL_SERVER_KEY" \
  "$ROOT/bench/terminal-echo/results.md" "$@"
