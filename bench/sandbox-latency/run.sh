#!/usr/bin/env bash
# Measures sandbox-service's NATS file/exec API against a raw `docker exec` of the same work, plus
# cold start and celld's idle RSS, in one run; writes bench/sandbox-latency/results.md (with the
# machine's load average: on a shared machine the numbers mean little without it).
# Needs what the sandbox-service tests need: the Docker engine, the workcell/sandbox:dev image (or
# WORKCELL_SANDBOX_RUNTIME_IMAGE) and the test nats-server (nats://127.0.0.1:14223, or WORKCELL_TEST_NATS_URL).
# Builds sandbox-service with its upstream modules from the reactor: nothing is installed into ~/.m2.
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
./mvnw -B -pl sandbox-service -am test -Dgroups=bench -DexcludedTestGroups=none -Dtest=SandboxLatencyBenchTest \
  -Dsurefire.failIfNoSpecifiedTests=false -Dbench.output="$PWD/bench/sandbox-latency/results.md"
cat bench/sandbox-latency/results.md
