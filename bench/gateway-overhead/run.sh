#!/usr/bin/env bash
# Gateway overhead: an authenticated GET /api/work/tasks/{id} through the gateway against the same
# read as one direct NATS request, p50/p99 in one run (GatewayOverheadBenchTest, tag "bench").
# Needs nats-server on PATH (the test starts a private one).
# Prints a table and rewrites the top of bench/gateway-overhead/results.md (hand-written sections
# from the first "## " heading on are kept). Builds gateway-service with its
# upstream modules from the reactor, so nothing is installed into ~/.m2.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
if [[ -z ${JAVA_HOME:-} ]]; then
  # ls fails when one of the candidates is missing; any one that exists will do.
  JAVA_HOME=$(ls -d /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*-21-* 2>/dev/null | head -n 1 || true)
  export JAVA_HOME
fi
./mvnw -B ${MAVEN_OFFLINE:+-o} -pl gateway-service -am -Pbench verify -Dtest=GatewayOverheadBenchTest \
  -Dsurefire.failIfNoSpecifiedTests=false -Dbench.results="$ROOT/bench/gateway-overhead/results.md"
cat "$ROOT/bench/gateway-overhead/results.md"
