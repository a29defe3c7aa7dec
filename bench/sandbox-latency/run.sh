#!/usr/bin/env bash
# Measures sandbox-service's NATS file/exec API against a raw `docker exec` of the same work, plus
# cold start and celld's idle RSS, in one run; writes bench/sandbox-latency/results.md.
# Needs what the sandbox-service tests need: the Docker engine, the workcell/sandbox:dev image and
# the test nats-server (nats://127.0.0.1:14223, or WORKCELL_TEST_NATS_URL).
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
./mvnw -B -q -pl contracts,messaging install -DskipTests
./mvnw -B -pl sandbox-service test -Dgroups=bench -DexcludedTestGroups=none -Dtest=SandboxLatencyBenchTest \
  -Dsurefire.failIfNoSpecifiedTests=false -Dbench.output="$PWD/bench/sandbox-latency/results.md"
cat bench/sandbox-latency/results.md
