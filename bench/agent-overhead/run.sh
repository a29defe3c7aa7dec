#!/usr/bin/env bash
# Time the agent runner adds per model round: a fixture provider answering instantly (OpenAI SSE wire)
# and one read_file per round against a fixture sandbox responder, on the module's own private
# nats-server (test-fixtures' PrivateNatsServer; nats-server must be on PATH).
# Writes bench/agent-overhead/results.md. Timings are reported, never asserted.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
# Built with its upstream modules from the reactor: nothing is installed into ~/.m2.
./mvnw -o -B -pl agent-runner-service -am test -Dgroups=bench -DexcludedTestGroups=none \
  -Dtest=AgentOverheadBenchTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dbench.results="$here/results.md"
cat "$here/results.md"
