# shellcheck shell=bash
# bin/workcell test: every test of the project, against real parts (PostgreSQL, NATS with
# JetStream, the Docker engine, the sandbox image). Sourced by bin/workcell; defines functions only.

WT_PASSED=0 WT_FAILED=0 WT_SKIPPED=0
WT_FAILURES=()

wt_count() { # wt_count PASSED FAILED SKIPPED
  WT_PASSED=$((WT_PASSED + $1)) WT_FAILED=$((WT_FAILED + $2)) WT_SKIPPED=$((WT_SKIPPED + $3))
}

# wt_timed LABEL CMD... — runs a set of checks and notes how long it took (printed at the end: where CI time goes).
WT_TIMES=()
wt_timed() {
  local label=$1 start=$SECONDS rc=0
  shift
  "$@" || rc=$?
  WT_TIMES+=("$label $((SECONDS - start)) s")
  return $rc
}
wt_print_times() { ((${#WT_TIMES[@]})) && wc_info "time taken: $(IFS=';'; printf '%s' "${WT_TIMES[*]}" | sed 's/;/, /g')"; return 0; }

# wt_check NAME CMD... — one stack check: runs CMD, records pass or fail.
# A step that copies its output to stderr must open /dev/stderr with tee -a: it is this log, and a plain
# open truncates it (every earlier line of the run was lost that way).
wt_check() {
  local name=$1
  shift
  if "$@" >>"$WC_LOGS/stack-test.log" 2>&1; then
    printf '    ok    %s\n' "$name" >&2
    wt_count 1 0 0
  else
    printf '    FAIL  %s (log: %s)\n' "$name" "$WC_LOGS/stack-test.log" >&2
    wt_count 0 1 0
    WT_FAILURES+=("stack: $name")
  fi
}

# Tests own their databases: each run starts from an empty one, migrated by the service under test.
wt_reset_test_databases() {
  local data
  data=$(wc_pg_data)
  wc_pg_psql "$data" "drop database if exists workcell_task_test with (force)"
  wc_pg_database workcell_task workcell_task_test
}

wt_go_tests() {
  local log=$WC_LOGS/test-go.log rc=0 passed failed skipped
  (cd "$ROOT/celld" && GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod go test -count=1 -v ./...) >"$log" 2>&1 || rc=$?
  passed=$(grep -cE '^\s*--- PASS' "$log" || true)
  failed=$(grep -cE '^\s*--- FAIL' "$log" || true)
  skipped=$(grep -cE '^\s*--- SKIP' "$log" || true)
  if ((rc != 0 && failed == 0)); then
    failed=1 # a build error fails the suite even though no test reported
    tail -n 30 "$log" >&2
  fi
  grep -E '^\s*--- FAIL' "$log" >&2 || true
  wt_count "$passed" "$failed" "$skipped"
  ((failed == 0)) || WT_FAILURES+=("celld: see $log")
  wc_info "celld: $passed passed, $failed failed, $skipped skipped"
}

# Sums the Surefire/Failsafe XML reports of every module.
wt_surefire_totals() {
  local reports=()
  mapfile -t reports < <(find "$ROOT" -path '*/target/*-reports/TEST-*.xml' -not -path "$ROOT/.workcell/*" 2>/dev/null)
  ((${#reports[@]})) || { echo "0 0 0"; return; }
  grep -ho '<testsuite [^>]*>' "${reports[@]}" | awk '
    { t = f = e = s = 0
      if (match($0, / tests="[0-9]+"/)) t = substr($0, RSTART + 8, RLENGTH - 9)
      if (match($0, / failures="[0-9]+"/)) f = substr($0, RSTART + 11, RLENGTH - 12)
      if (match($0, / errors="[0-9]+"/)) e = substr($0, RSTART + 9, RLENGTH - 10)
      if (match($0, / skipped="[0-9]+"/)) s = substr($0, RSTART + 10, RLENGTH - 11)
      T += t; F += f + e; S += s }
    END { printf "%d %d %d\n", T - F - S, F, S }'
}

wt_maven_tests() {
  local log=$WC_LOGS/test-maven.log rc=0 totals
  find "$ROOT" -path '*/target/*-reports' -type d -not -path "$ROOT/.workcell/*" -exec rm -rf {} + 2>/dev/null || true
  wc_info "mvn verify (log: $log)"
  (cd "$ROOT" && env QUARKUS_DATASOURCE_PASSWORD="$(wc_secret pg-workcell_task)" \
    WORKCELL_TEST_PG_REACTIVE_URL="postgresql://127.0.0.1:$WC_PG_PORT/workcell_task_test" \
    WORKCELL_TEST_PG_JDBC_URL="jdbc:postgresql://127.0.0.1:$WC_PG_PORT/workcell_task_test" \
    DOCKER_HOST="${DOCKER_HOST:-unix:///var/run/docker.sock}" \
    ./mvnw -B -fae verify) >"$log" 2>&1 || rc=$?
  grep -E 'Tests run:.*Fail|<<< (FAILURE|ERROR)|BUILD (SUCCESS|FAILURE)|Reactor Summary' "$log" | grep -vE 'Failures: 0, Errors: 0' >&2 || true
  read -r passed failed skipped <<<"$(wt_surefire_totals)"
  if ((rc != 0 && failed == 0)); then
    failed=1 # a compile or packaging failure
    grep -E '^\[ERROR\]' "$log" | head -n 20 >&2
  fi
  wt_count "$passed" "$failed" "$skipped"
  ((failed == 0)) || WT_FAILURES+=("java: see $log")
  ((rc == 0)) && mkdir -p "$ROOT/target" && touch "$ROOT/target/build.stamp" # verify packaged every service
  wc_info "java: $passed passed, $failed failed, $skipped skipped"
}

# The stack checks start one new user's sandbox after another on an instance whose memory budget
# they fill (eight 2 GiB sandboxes on a 24 GiB host) and expect the least recently used idle one to
# make room at once; with the default eviction minimum (10 s) a fresh-clone run met 429
# runtime_capacity there. The minimum itself is the lifecycle set's to check (5 s there).
wt_stack_settings() {
  export WORKCELL_SANDBOX_EVICTION_MIN_IDLE=${WORKCELL_SANDBOX_EVICTION_MIN_IDLE:-0}
}

# The launcher end to end, on a stack of its own (own state folder, ports, database cluster and
# NATS), so a developer's running stack is neither used nor stopped.
wt_stack_tests() {
  wt_stack_settings
  local -a stack=(env WORKCELL_STATE="$WC_STATE/stack-test" WORKCELL_PORT_BASE=9480 WORKCELL_PG_PORT=15433
    WORKCELL_NATS_PORT=14224 WORKCELL_NATS_MONITOR_PORT=18224 "$ROOT/bin/workcell")
  local out=$WC_LOGS/stack-test.out url=http://127.0.0.1:9480 token pids_before
  : >"$WC_LOGS/stack-test.log"
  trap '"${stack[@]}" down >/dev/null 2>&1 || true' RETURN

  wt_check "up from a built tree prints the API URL and an admin token" \
    bash -c '"$@" up >"'"$out"'" 2>&1 && grep -q "^API URL: *http://127.0.0.1:9480" "'"$out"'" && grep -qE "^Admin token: [A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$" "'"$out"'"' _ "${stack[@]}"
  token=$(sed -n 's/^Admin token: *//p' "$out")
  wt_check "status exits 0 with every part ready" "${stack[@]}" status
  wt_check "each of the seven services answers its NATS ping through the real server" \
    bash -c '"$@" ping | tee -a /dev/stderr | grep -c " ok " | grep -qx 7' _ "${stack[@]}"
  wt_check "a service's NATS user cannot reach subjects outside its own (preview-proxy → sandbox)" \
    bash -c '! WORKCELL_NATS_USER=preview-proxy WORKCELL_NATS_PASSWORD=$(cat '"$WC_STATE"'/stack-test/secrets/nats-preview-proxy) "$@" ping --service sandbox --timeout 1s' _ "${stack[@]}"
  wt_check "an unknown NATS user is refused" \
    bash -c '! WORKCELL_NATS_USER=intruder WORKCELL_NATS_PASSWORD=x "$@" ping --service task --timeout 1s' _ "${stack[@]}"
  wt_check "the admin token authenticates as admin at the gateway" \
    bash -c 'curl -sf -H "Authorization: Bearer $1" '"$url"'/api/auth/me | grep -q "\"username\":\"admin\".*\"role\":\"ADMIN\""' _ "$token"
  wt_check "a request without a token is refused with 401" \
    bash -c '[[ $(curl -s -o /dev/null -w "%{http_code}" '"$url"'/api/auth/me) == 401 ]]'
  wt_check "token --user creates the account and its token works" \
    bash -c 't=$("$@" token --user alice --role user) && curl -sf -H "Authorization: Bearer $t" '"$url"'/api/auth/me | grep -q "\"username\":\"alice\".*\"role\":\"USER\""' _ "${stack[@]}"
  wt_check "a task created at the gateway is queued, taken by agent-runner and streamed live to its end" \
    wt_task_streams_to_done "$url" "$token"
  # Early, on a fresh stack: it needs task sandboxes under the global cap, and deletes its tasks at the end.
  wt_timed overload wt_overload_checks "$url" "$WC_STATE/stack-test" "${stack[@]}"
  wt_timed work-api wt_work_api_checks "$url" "$token" "${stack[@]}"
  wt_timed admin wt_admin_checks "$url" "$token" "${stack[@]}"
  # An admin of its own: its two task sandboxes count against the per-owner runtime limit (2).
  wt_timed preview wt_preview_checks "$url" "$("${stack[@]}" token --user preview-check --role admin 2>/dev/null)" "$WC_STATE/stack-test/secrets/preview-key"
  wt_timed disks wt_disk_checks "$url" "$token"
  wt_timed mirror wt_mirror_checks "$url" "$token" "$(cat "$WC_STATE/stack-test/secrets/terminal-server-key")" "$WC_STATE/stack-test" "${stack[@]}"
  WC_SECRETS=$WC_STATE/stack-test/secrets WC_KEYS=$WC_STATE/stack-test/keys \
    wt_timed open-terminal wt_open_terminal_checks "$url" "$(cat "$WC_STATE/stack-test/secrets/terminal-server-key")"
  wt_timed terminal wt_terminal_checks "$url" "$(cat "$WC_STATE/stack-test/secrets/terminal-server-key")" "$WC_STATE/stack-test" "${stack[@]}"
  wt_timed direct-connection wt_direct_connection_checks "$url" "$(cat "$WC_STATE/stack-test/secrets/terminal-server-key")" "$WC_STATE/stack-test" "${stack[@]}"
  wt_timed routes wt_agent_route_checks "$url" "$token" "$WC_STATE/stack-test" "${stack[@]}"
  # These restart sandbox-service and agent-runner with the fixture model, a global cap of 2 and a 2 s command timeout.
  wt_timed lifecycle wt_lifecycle_checks "$url" "$WC_STATE/stack-test" "${stack[@]}"
  # Last before the restart checks: it restarts task-service and agent-runner with a fixture model.
  wt_timed runner-crash wt_runner_crash_checks "$url" "$token" "$WC_STATE/stack-test" "${stack[@]}"
  wt_timed supervision wt_supervision_checks "$url" "$WC_STATE/stack-test" "${stack[@]}"
  wt_check "env prints the three exports scripts rely on" \
    bash -c '"$@" env | grep -c -E "^export WORKCELL_(URL|ADMIN_TOKEN|TERMINAL_SERVER_KEY)=." | grep -qx 3' _ "${stack[@]}"
  pids_before=$(cat "$WC_STATE"/stack-test/run/*.pid 2>/dev/null | sort | tr '\n' ' ')
  wt_check "up again is harmless: same processes, still ready" \
    bash -c '"$@" up >/dev/null 2>&1 && [[ "$(cat '"$WC_STATE"'/stack-test/run/*.pid | sort | tr "\n" " ")" == "'"$pids_before"'" ]] && "$@" status' _ "${stack[@]}"
  wt_check "down leaves none of its processes behind" \
    bash -c '"$@" down && for p in '"$pids_before"'; do ! kill -0 "$p" 2>/dev/null || exit 1; done && ! "$@" status' _ "${stack[@]}"
}

# POST a task, then follow its run's SSE stream: snapshot, the runner's events, done. No model
# provider is configured in the test stack, so the run must end failed with that reason, honestly.
wt_task_streams_to_done() {
  local url=$1 token=$2 created task run events
  created=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"message":"write index.html","provider":"ollama","model":"qwen3:8b"}' "$url/api/work/tasks") || return 1
  task=$(sed -n 's/.*"task":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$created")
  run=$(sed -n 's/.*"run":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$created")
  [[ -n $task && -n $run ]] || return 1
  events=$(curl -s -N --max-time 30 -H "Authorization: Bearer $token" "$url/api/work/tasks/$task/runs/$run/events")
  printf '%s\n' "$events"
  grep -q '^event:snapshot' <<<"$events" && grep -q '"state":"running"' <<<"$events" \
    && grep -q '^event:skill_loaded' <<<"$events" && grep -q '"code":"provider_not_found"' <<<"$events" \
    && [[ $(grep '^event:' <<<"$events" | tail -n 1) == event:done ]] && grep -q '"type":"done".*"state":"failed"' <<<"$events"
}

# wt_fixture_start NAME RUN_DIR PROBE_URL SCRIPT ARGS... — starts a python3 fixture server of a
# stack check (pid in RUN_DIR/NAME.pid, log in WC_LOGS/NAME.log) and waits up to 10 s for PROBE_URL.
wt_fixture_start() {
  local name=$1 dir=$2 probe=$3 i
  shift 3
  wc_pid_alive "$dir/$name.pid" && return 0
  mkdir -p "$dir" "$WC_LOGS"
  python3 "$@" >>"$WC_LOGS/$name.log" 2>&1 &
  echo $! >"$dir/$name.pid"
  for ((i = 0; i < 100; i++)); do
    curl -sf -o /dev/null "$probe" && return 0
    sleep 0.1
  done
  return 1
}

# wt_json PATH — one value of the JSON on stdin ("task.id"); empty when absent.
wt_json() {
  python3 -c 'import json,sys
v=json.load(sys.stdin)
for k in sys.argv[1].split("."):
    v=v.get(k) if isinstance(v,dict) else None
print("" if v is None else v)' "$1"
}

# Real-stack check sets of the Work API and the Open Terminal API.
source "$ROOT/bin/lib/test-work-api.sh"
source "$ROOT/bin/lib/test-admin.sh"
source "$ROOT/bin/lib/test-preview.sh"
source "$ROOT/bin/lib/test-open-terminal.sh"
source "$ROOT/bin/lib/test-terminal.sh"
source "$ROOT/bin/lib/test-direct-connection.sh"
source "$ROOT/bin/lib/test-runs.sh"
source "$ROOT/bin/lib/test-lifecycle.sh"
source "$ROOT/bin/lib/test-disks.sh"
source "$ROOT/bin/lib/test-mirror.sh"
source "$ROOT/bin/lib/test-supervision.sh"
source "$ROOT/bin/lib/test-agent-routes.sh"
source "$ROOT/bin/lib/test-overload.sh"
source "$ROOT/bin/lib/test-compose.sh"

# bin/workcell test --only NAME[,NAME...]: only these stack check sets (overload, work-api, preview,
# open-terminal, terminal, lifecycle, supervision, disks) on a stack of their own as in wt_stack_tests, and compose (the
# compose stack, bin/lib/test-compose.sh); no go test, no mvn verify.
wt_only_stack_tests() {
  local names=",$1,"
  wt_stack_settings
  : >"$WC_LOGS/stack-test.log"
  if [[ $names == *,compose,* ]]; then
    wt_compose_checks
    names=${names//,compose,/,}
    [[ $names == , ]] && return 0
  fi
  local -a stack=(env WORKCELL_STATE="$WC_STATE/stack-test" WORKCELL_PORT_BASE=9480 WORKCELL_PG_PORT=15433
    WORKCELL_NATS_PORT=14224 WORKCELL_NATS_MONITOR_PORT=18224 "$ROOT/bin/workcell")
  local url=http://127.0.0.1:9480 token
  trap '"${stack[@]}" down >/dev/null 2>&1 || true' RETURN
  wt_check "up prints the API URL and an admin token" bash -c '"$@" up >"'"$WC_LOGS/stack-test.out"'" 2>&1' _ "${stack[@]}"
  token=$(sed -n 's/^Admin token: *//p' "$WC_LOGS/stack-test.out")
  [[ $names == *,overload,* ]] && wt_overload_checks "$url" "$WC_STATE/stack-test" "${stack[@]}"
  [[ $names == *,work-api,* ]] && wt_work_api_checks "$url" "$token" "${stack[@]}"
  [[ $names == *,admin,* ]] && wt_admin_checks "$url" "$token" "${stack[@]}"
  [[ $names == *,preview,* ]] && wt_preview_checks "$url" "$("${stack[@]}" token --user preview-check --role admin 2>/dev/null)" \
    "$WC_STATE/stack-test/secrets/preview-key"
  [[ $names == *,disks,* ]] && wt_disk_checks "$url" "$token"
  [[ $names == *,mirror,* ]] && wt_mirror_checks "$url" "$token" "$(cat "$WC_STATE/stack-test/secrets/terminal-server-key")" \
    "$WC_STATE/stack-test" "${stack[@]}"
  [[ $names == *,open-terminal,* ]] && WC_SECRETS=$WC_STATE/stack-test/secrets WC_KEYS=$WC_STATE/stack-test/keys \
    wt_open_terminal_checks "$url" "$(cat "$WC_STATE/stack-test/secrets/terminal-server-key")"
  [[ $names == *,terminal,* ]] && wt_terminal_checks "$url" "$(cat "$WC_STATE/stack-test/secrets/terminal-server-key")" \
    "$WC_STATE/stack-test" "${stack[@]}"
  [[ $names == *,lifecycle,* ]] && wt_lifecycle_checks "$url" "$WC_STATE/stack-test" "${stack[@]}"
  [[ $names == *,supervision,* ]] && wt_supervision_checks "$url" "$WC_STATE/stack-test" "${stack[@]}"
  return 0
}

run_all_tests() {
  local start=$SECONDS
  if [[ ${1:-} == --only ]]; then
    [[ -n ${2:-} ]] || wc_die "--only needs check set names: overload, work-api, admin, preview, open-terminal, terminal, lifecycle, supervision, disks, mirror, compose"
    wc_say "[test] only the stack checks: $2"
    wc_ensure_packages
    ensure_docker_engine
    ensure_sandbox_firewall
    ensure_sandbox_disk_root
    ensure_sandbox_image
    wt_only_stack_tests "$2"
    wc_say "tests finished in $((SECONDS - start)) s"
    printf '%d passed, %d failed, %d skipped\n' "$WT_PASSED" "$WT_FAILED" "$WT_SKIPPED"
    ((WT_FAILED == 0 && WT_PASSED > 0))
    return
  fi
  # NATS: each module's tests start a nats-server of their own (test-fixtures' PrivateNatsServer).
  wc_say "[test 1/5] real parts: PostgreSQL, nats-server, Docker, sandbox image"
  wc_ensure_packages
  ensure_postgres
  wt_reset_test_databases
  ensure_docker_engine
  ensure_sandbox_firewall
  ensure_sandbox_disk_root
  ensure_sandbox_image
  WT_TIMES+=("real parts $((SECONDS - start)) s")
  wc_say "[test 2/5] celld (go test)"
  wt_timed "celld (go test)" wt_go_tests
  wc_say "[test 3/5] Java modules (mvn verify)"
  wt_timed "mvn verify" wt_maven_tests
  wc_say "[test 4/5] the launcher end to end"
  wt_timed "launcher end to end, all" wt_stack_tests
  wc_say "[test 5/5] the compose stack, both engine-access variants"
  wt_timed compose wt_compose_checks
  wc_say "tests finished in $((SECONDS - start)) s"
  wt_print_times
  local f
  for f in "${WT_FAILURES[@]}"; do wc_err "$f"; done
  printf '%d passed, %d failed, %d skipped\n' "$WT_PASSED" "$WT_FAILED" "$WT_SKIPPED"
  ((WT_FAILED == 0 && WT_PASSED > 0))
}
