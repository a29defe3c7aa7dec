#!/usr/bin/env bash
# bench/mirror: write-to-object lag (p50/p99), initial sync of 10,000 small files, a restart over
# them (PUTs), and the CPU of an idle mirror with 50 idle homes, against a real s3proxy.
# Usage: bench/mirror/run.sh [-Dbench.files=N] [-Dbench.writes=N] [-Dbench.idle-seconds=N]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
log=$ROOT/sandbox-mirror/target/bench-mirror.log
mkdir -p "$(dirname "$log")"
flock /tmp/wc-build.lock ./mvnw -B -o -pl sandbox-mirror verify -Dtest=MirrorBench -Dsurefire.failIfNoSpecifiedTests=false \
  -Dworkcell.bench=true "$@" >"$log" 2>&1 || { tail -n 40 "$log"; exit 1; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
grep '^BENCH' "$log" | sed 's/^BENCH /- /'
