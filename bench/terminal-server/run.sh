#!/usr/bin/env bash
# Open Terminal API latency (read_file 4 KB, write_file 4 KB, run_command `true` with wait) through
# a running stack's gateway, against a raw `docker exec` of the same work into the same user's
# sandbox, p50/p99 in one run; writes bench/terminal-server/results.md.
# Needs a running stack (bin/workcell up; the same WORKCELL_* variables for another state folder),
# python3 and the docker CLI. Run it once, not in a loop: the machine is shared.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
eval "$("$ROOT/bin/workcell" env)"
python3 "$ROOT/bench/terminal-server/bench.py" "$WORKCELL_URL" "$WORKCELL_TERMINAL_SERVER_KEY" \
  "$ROOT/bench/terminal-server/results.md" "$@"
