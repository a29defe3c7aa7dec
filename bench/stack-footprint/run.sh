#!/usr/bin/env bash
# Stack footprint: start time of the whole stack on a built tree, and idle RSS of each service,
# against a baseline measured in the same run (an idle bare JVM with the same options).
# Runs a stack of its own (own state folder and ports); prints a table and writes results.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/bench/stack-footprint/results.md
export WORKCELL_STATE=$ROOT/.workcell/bench-footprint WORKCELL_PORT_BASE=9580 WORKCELL_PG_PORT=15434 \
  WORKCELL_NATS_PORT=14225 WORKCELL_NATS_MONITOR_PORT=18225
wc() { "$ROOT/bin/workcell" "$@"; }
trap 'wc down >/dev/null 2>&1 || true' EXIT

source "$ROOT/bin/lib/common.sh"
source "$ROOT/bin/lib/docker-engine.sh"
source "$ROOT/bin/lib/prerequisites.sh"
source "$ROOT/bin/lib/services.sh"
wc_ensure_java
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

echo "warm-up: first up (builds if needed; class-data archives are written at the first clean stop)" >&2
wc up >/dev/null
wc down >/dev/null

echo "measured: up on a built tree" >&2
start=$(date +%s%N)
wc up >"$WORKCELL_STATE/up.out" 2>&1
total=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
services_s=$(sed -n 's/.*all 7 services ready in \([0-9]*\) s.*/\1/p' "$WORKCELL_STATE/up.out")

echo "idle 20 s before reading RSS" >&2
sleep 20
declare -A rss
sum=0
for svc in "${WC_SERVICES[@]}"; do
  rss[$svc]=$(rss_kb "$(<"$WORKCELL_STATE/run/$svc.pid")")
  sum=$((sum + rss[$svc]))
done

# Baseline: a bare JVM, same options, doing nothing.
base_dir=$(mktemp -d)
printf 'public class Idle { public static void main(String[] a) throws Exception { Thread.sleep(60000); } }\n' >"$base_dir/Idle.java"
"$JAVA_HOME/bin/javac" -d "$base_dir" "$base_dir/Idle.java"
"$JAVA_HOME/bin/java" $WC_JAVA_OPTS -cp "$base_dir" Idle &
bare=$!
sleep 3
bare_rss=$(rss_kb "$bare")
kill "$bare"; rm -rf "$base_dir"

{
  echo "# Stack footprint ($(date -u +%F), $(nproc) cores)"
  echo
  echo "Goal: all seven services ready within 30 s of \`up\` on a built tree; ≤ 1.2 GB RSS together."
  echo
  echo "| measure | value |"
  echo "|---|---|"
  echo "| \`bin/workcell up\` on a built tree, wall time | $total s |"
  echo "| services start → all 7 ready | ${services_s:-?} s |"
  echo "| idle RSS, 7 services together | $((sum / 1024)) MB |"
  echo "| baseline: idle bare JVM, same options | $((bare_rss / 1024)) MB |"
  echo
  echo "| service | idle RSS | × bare JVM |"
  echo "|---|---|---|"
  for svc in "${WC_SERVICES[@]}"; do
    awk -v s="$svc" -v r="${rss[$svc]}" -v b="$bare_rss" 'BEGIN { printf "| %s | %d MB | %.1f |\n", s, r / 1024, r / b }'
  done
} | tee "$OUT"
