#!/usr/bin/env bash
# The task-store bench: 20 concurrent NATS clients against task-service on the test PostgreSQL and
# nats-server (start them with `bin/workcell up` or `bin/workcell test` first). Prints a table and
# writes bench/task-store/results.md. Goal: p99 <= 15 ms per operation.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
if [[ -z ${JAVA_HOME:-} ]]; then
  JAVA_HOME=$(ls -d /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*-21-* 2>/dev/null | head -n 1 || true)
  export JAVA_HOME
fi
if [[ -z ${QUARKUS_DATASOURCE_PASSWORD:-} && -r .workcell/secrets/pg-workcell_task ]]; then
  QUARKUS_DATASOURCE_PASSWORD=$(<.workcell/secrets/pg-workcell_task)
  export QUARKUS_DATASOURCE_PASSWORD
fi
# task-service with its upstream modules from the reactor: nothing is installed into ~/.m2.
./mvnw -B -pl task-service -am -Pbench verify -Dsurefire.failIfNoSpecifiedTests=false -DfailIfNoTests=false \
  -Dbench.results="$ROOT/bench/task-store/results.md"
echo "results: $ROOT/bench/task-store/results.md"
