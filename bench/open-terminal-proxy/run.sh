#!/usr/bin/env bash
# Open Terminal /proxy/{port} overhead on a running stack: a 1 KB and a 1 MB GET through the gateway
# (gateway → NATS → sandbox-service → celld → 127.0.0.1:PORT in the user's home) against the same
# GET made inside the sandbox to 127.0.0.1:PORT (a client run with `docker exec`; homes publish no
# port), p50/p99 and throughput in one run, with the load average; writes results.md here.
# Needs a running stack (bin/workcell up), python3 and the docker CLI. Run it once, not in a loop.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
eval "$("$ROOT/bin/workcell" env)"
python3 "$ROOT/bench/open-terminal-proxy/proxy_bench.py" "$WORKCELL_URL" "$WORKCELL_TERMINAL_SERVER_KEY" \
  "$ROOT/bench/open-terminal-proxy/results.md" "$@"
