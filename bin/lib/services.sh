# shellcheck shell=bash
# The seven Quarkus services: build once, start on loopback, wait for readiness, stop by pid.
# Sourced; defines functions only.

WC_SERVICES=(task-service sandbox-service agent-runner-service gateway-service preview-proxy-service terminal-service sandbox-mirror)
WC_PORT_BASE=${WORKCELL_PORT_BASE:-8480}
declare -A WC_PORT=(
  [gateway-service]=$WC_PORT_BASE [task-service]=$((WC_PORT_BASE + 1)) [agent-runner-service]=$((WC_PORT_BASE + 2))
  [sandbox-service]=$((WC_PORT_BASE + 3)) [preview-proxy-service]=$((WC_PORT_BASE + 4))
  [terminal-service]=$((WC_PORT_BASE + 5)) [sandbox-mirror]=$((WC_PORT_BASE + 6))
)
WC_URL=http://127.0.0.1:${WC_PORT[gateway-service]}

# Small heaps and the serial collector: seven JVMs share a 2-core machine with sandboxes.
WC_JAVA_OPTS=${WORKCELL_JAVA_OPTS:--XX:+UseSerialGC -Xms16m -Xmx160m -Xss512k -XX:MaxMetaspaceSize=128m -XX:ReservedCodeCacheSize=48m -XX:+ExitOnOutOfMemoryError}
# glibc keeps up to 8 malloc arenas per core, each holding freed memory: about 50 MB of a JVM's RSS
# that Native Memory Tracking does not see (the JIT's arenas, Netty's native allocations). Two suffice here.
WC_MALLOC_ARENA_MAX=${WORKCELL_MALLOC_ARENA_MAX:-2}
# glibc also keeps what a JVM frees inside those arenas (the JIT's compiler arenas, I/O buffers): over a
# 10-minute soak sandbox-mirror's RSS rose 26 % and terminal-service's 15 % with a flat heap and a flat
# Native Memory Tracking total; `jcmd PID System.trim_native_heap` gave back 17-34 MB per JVM at once.
# The JVM trims it itself every WORKCELL_TRIM_NATIVE_HEAP_MS (0: never) when it knows the option.
WC_TRIM_NATIVE_HEAP_MS=${WORKCELL_TRIM_NATIVE_HEAP_MS:-30000}
# glibc serves a freed block of 128 KiB and more from the heap the next time once one was freed (its
# mmap threshold follows the largest block freed, up to 32 MiB), and keeps it until a trim: a JVM's
# short-lived megabyte buffers (a terminal's output, the mirror's copies) then raised its RSS by 20-55 MB
# between two trims. A fixed threshold maps such blocks and unmaps them on free (0: glibc's own).
WC_MALLOC_MMAP_THRESHOLD=${WORKCELL_MALLOC_MMAP_THRESHOLD:-131072}
# Added for one service (after WC_JAVA_OPTS, so they win); WORKCELL_JAVA_OPTS_GATEWAY etc. replace them.
# The gateway's young generation holds the requests in flight (20 users' 64 KB bodies with their
# JSON and NATS copies: several MB): in the default one, 5 MB at -Xms16m, every collection promoted
# them, the old generation filled with garbage and the serial collector grew it rather than collect,
# up to -Xmx (RSS +43 % over a 10-minute soak, with 18 MB live). A fixed young generation (first
# 40 MB with 6.7 MB survivors) lets most of them die young (bench/soak/results.md). At 260-280
# requests/s (once Work requests skipped task-service, decision 0025) the rest still filled the old
# generation by ~0.5 MB/s until it reached its maximum, minutes after the warm-up: RSS +27-30 % with
# 16 MB live.
# So the whole heap is committed and touched at start (-Xms = -Xmx, AlwaysPreTouch): the gateway's
# RSS is from the first minute what it is under load (idle about +100 MB).
# Under a flood of 2 MB writes its survivors held 5-12 MB of bodies in flight; over half full, the
# collector lowered the tenuring age to 2, promoted them, and the old generation filled every ~3 s:
# a 40 ms full collection that every other user's request waited for. Survivors of 20 MB, allowed
# to fill to 90 %, keep them young. Its JIT's code passes 15 % of a 48 MB code cache early, and each
# further ~5 MB compiled then forced a full collection ("CodeCache GC Threshold", up to 80 ms); a
# 128 MB reservation (address space, not memory) leaves that to a cache that really fills.
#
# agent-runner and terminal-service mostly wait (on model streams and tools; on keystrokes), yet their
# C2 compiler kept working through the soak's ten minutes at their trickle of work: code cache +5-6 MB
# and compiler arenas of 10-15 MB held until the next trim, RSS +12 % over warm with a flat heap
# (bench/soak/results.md). The client compiler alone compiles hot code once, quickly and small
# (=-XX:TieredStopAtLevel=4 restores C2).
declare -A WC_SERVICE_JAVA_OPTS=(
  [gateway-service]=${WORKCELL_JAVA_OPTS_GATEWAY:--Xms160m -Xmn80m -XX:SurvivorRatio=2 -XX:TargetSurvivorRatio=90 -XX:ReservedCodeCacheSize=128m -XX:+AlwaysPreTouch}
  [agent-runner-service]=${WORKCELL_JAVA_OPTS_AGENT_RUNNER:--XX:TieredStopAtLevel=1}
  [terminal-service]=${WORKCELL_JAVA_OPTS_TERMINAL:--XX:TieredStopAtLevel=1}
)

# Operator variables a service receives when they are set in the launcher's environment: seed 004's
# WORK_* settings go to the one service that reads them (provider keys only to agent-runner), and a
# trailing * passes every variable with that prefix.
declare -A WC_PASS_ENV=(
  [task-service]="WORK_MAX_TASKS_PER_USER WORK_MAX_TASKS_GLOBAL WORK_APPROVAL_TIMEOUT_MS WORKCELL_TASK_*"
  [agent-runner-service]="WORK_OLLAMA_URL WORK_OLLAMA_API_KEY WORK_OPENAI_BASE_URL WORK_OPENAI_API_KEY
    WORK_ANTHROPIC_BASE_URL WORK_ANTHROPIC_API_KEY WORK_GEMINI_BASE_URL WORK_GEMINI_API_KEY
    WORK_MAX_AGENT_ROUNDS WORK_PROVIDER_IDLE_TIMEOUT_MS WORK_RUN_LEASE_WAIT_MS WORKCELL_AGENT_*"
  [sandbox-service]="WORK_RUNTIME_IMAGE WORK_COMMAND_TIMEOUT_MS WORK_MAX_OUTPUT_CHARS WORK_MEMORY_LIMIT
    WORK_CPU_LIMIT WORK_PIDS_LIMIT WORK_PREVIEW_PORT WORK_PREVIEW_BIND WORK_DOCKER_PUBLISHED_HOST WORK_NETWORK_NAME WORK_RUNTIME_DNS
    WORK_RUNTIME_IDLE_TIMEOUT_MS WORK_MAX_ACTIVE_RUNTIMES_GLOBAL WORK_MAX_ACTIVE_RUNTIMES_PER_USER
    WORK_WORKSPACE_SIZE WORK_HOST_WORKSPACES_ENABLED WORK_HOST_WORKSPACE_ROOTS WORKCELL_SANDBOX_*"
  [gateway-service]="WORKCELL_GATEWAY_* WORKCELL_TERMINAL_*"
  [preview-proxy-service]="WORKCELL_PREVIEW_CHECK_TTL WORKCELL_PREVIEW_PUBLIC_URL WORKCELL_PREVIEW_URL_TTL"
  [sandbox-mirror]="WORKCELL_MIRROR_*"
  [terminal-service]="WORKCELL_TERMINAL_* WORK_TERMINAL_MAX_SESSIONS_PER_TASK WORK_TERMINAL_IDLE_TIMEOUT_MS"
)

# The names of WC_PASS_ENV[SVC] set in this environment (prefix entries expanded).
wc_pass_env_names() {
  local entry
  for entry in ${WC_PASS_ENV[$1]:-}; do
    if [[ $entry == *'*' ]]; then
      compgen -v -- "${entry%\*}" || true
    else
      printf '%s\n' "$entry"
    fi
  done
}

wc_service_id() { local id=${1%-service}; printf '%s\n' "$id"; }

wc_jar() { printf '%s\n' "$ROOT/$1/target/quarkus-app/quarkus-run.jar"; }
wc_cli_jar() { printf '%s\n' "$ROOT/cli/target/quarkus-app/quarkus-run.jar"; }

# True when a jar is missing or a source/pom changed after the last build.
wc_build_stale() {
  local stamp=$ROOT/target/build.stamp module
  [[ -f $stamp ]] || return 0
  for module in "${WC_SERVICES[@]}" cli; do
    [[ -f $(wc_jar "$module") ]] || return 0
  done
  # Build output is no source: target/ holds generated trees with src/main in their paths (the OpenAPI client's).
  [[ -z $(find "$ROOT" \( -path "$ROOT/.workcell" -o -name target -o -name node_modules \) -prune -o \
    \( -name pom.xml -o -path '*/src/main/*' \) -newer "$stamp" -print -quit) ]] && return 1
  return 0
}

wc_build() {
  local log=$WC_LOGS/build.log start=$SECONDS
  if [[ ${1:-} != --force ]] && ! wc_build_stale; then
    wc_info "services are built (bin/workcell build --force rebuilds)"
    return 0
  fi
  wc_info "building the services with Maven (log: $log)"
  if ! (cd "$ROOT" && ./mvnw -B -q -Dmaven.test.skip=true package) >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    wc_die "build failed"
  fi
  mkdir -p "$ROOT/target" && touch "$ROOT/target/build.stamp"
  wc_info "built in $((SECONDS - start)) s"
}

# wc_trim_opts — the JVM option that trims the native heap periodically, when this JDK knows it
# (asked at each start: a `java -version` costs about 0.1 s).
wc_trim_opts() {
  ((WC_TRIM_NATIVE_HEAP_MS > 0)) || return 0
  "$JAVA_HOME/bin/java" "-XX:TrimNativeHeapInterval=$WC_TRIM_NATIVE_HEAP_MS" -version >/dev/null 2>&1 || return 0
  printf '%s\n' "-XX:TrimNativeHeapInterval=$WC_TRIM_NATIVE_HEAP_MS"
}

# Environment of one service: its port, the bus, and only the secrets that service needs.
wc_service_env() {
  local svc=$1
  printf '%s\n' "QUARKUS_HTTP_PORT=${WC_PORT[$svc]}" "WORKCELL_NATS_URL=nats://127.0.0.1:$WC_NATS_PORT" \
    "WORKCELL_STATE=$WC_STATE" "WORKCELL_LOG_JSON=${WORKCELL_LOG_JSON:-false}"
  local id
  id=$(wc_service_id "$svc")
  printf '%s\n' "WORKCELL_NATS_USER=$id" "WORKCELL_NATS_PASSWORD=$(wc_secret "nats-$id")"
  wc_nats_manages_streams "$id" || printf '%s\n' "WORKCELL_NATS_PROVISION_STREAMS=false"
  # A few operator settings pass through when set (model providers, runner leases); nothing else does.
  local name
  for name in $(wc_pass_env_names "$svc"); do
    [[ -n ${!name:-} ]] && printf '%s=%s\n' "$name" "${!name}"
  done
  case $svc in
    task-service)
      printf '%s\n' "QUARKUS_DATASOURCE_PASSWORD=$(wc_secret pg-workcell_task)" \
        "QUARKUS_DATASOURCE_REACTIVE_URL=postgresql://127.0.0.1:$WC_PG_PORT/workcell_task" \
        "QUARKUS_DATASOURCE_JDBC_URL=jdbc:postgresql://127.0.0.1:$WC_PG_PORT/workcell_task" \
        "WORKCELL_PROVIDER_KEY_FILE=$(wc_secret provider-key >/dev/null && printf '%s' "$WC_SECRETS/provider-key")" ;;
    # Each stack (state folder + port base) labels its sandboxes as its own instance: reconciliation
    # removes only its instance's orphans, so a second stack never deletes this one's sandboxes.
    sandbox-service)
      printf '%s\n' "DOCKER_HOST=${DOCKER_HOST:-unix:///var/run/docker.sock}" \
        "WORKCELL_SANDBOX_INSTANCE=${WORKCELL_SANDBOX_INSTANCE:-$( ((WC_PORT_BASE == 8480)) && echo default || echo "stack-$WC_PORT_BASE")}" ;;
    gateway-service)
      printf '%s\n' "MP_JWT_VERIFY_PUBLICKEY_LOCATION=$WC_KEYS/jwt-public.pem" \
        "WORKCELL_TERMINAL_SERVER_KEY_FILE=$WC_SECRETS/terminal-server-key" \
        "WORKCELL_PREVIEW_PROXY_URL=http://127.0.0.1:${WC_PORT[preview-proxy-service]}" \
        "WORKCELL_TERMINAL_SERVICE_URL=http://127.0.0.1:${WC_PORT[terminal-service]}" ;;
    # terminal-service checks the Open Terminal key itself: its WebSocket's first message carries it.
    terminal-service)
      printf '%s\n' "WORKCELL_TERMINAL_SERVER_KEY_FILE=$WC_SECRETS/terminal-server-key" ;;
    # The preview key signs preview URLs and checks them, both in preview-proxy; nothing else holds it.
    preview-proxy-service)
      wc_secret preview-key >/dev/null
      printf '%s\n' "WORKCELL_PREVIEW_KEY_FILE=$WC_SECRETS/preview-key" ;;
    # The only holder of the S3 credentials; it reads the sandbox disks read-only (decision 0021).
    sandbox-mirror)
      if wc_pid_alive "$WC_RUN/s3.supervisor.pid"; then
        wc_secret s3-access-key >/dev/null && wc_secret s3-secret-key >/dev/null
        printf '%s\n' "WORKCELL_MIRROR_S3_ENDPOINT=$WC_S3_URL" "WORKCELL_MIRROR_S3_BUCKET=$WC_S3_BUCKET" \
          "WORKCELL_MIRROR_S3_ACCESS_KEY_FILE=$WC_SECRETS/s3-access-key" \
          "WORKCELL_MIRROR_S3_SECRET_KEY_FILE=$WC_SECRETS/s3-secret-key"
      fi
      printf '%s\n' "WORKCELL_MIRROR_DISK_ROOT=${WORKCELL_SANDBOX_DISK_ROOT:-/var/lib/workcell/disks}" \
        "WORKCELL_MIRROR_INSTANCE=${WORKCELL_SANDBOX_INSTANCE:-$( ((WC_PORT_BASE == 8480)) && echo default || echo "stack-$WC_PORT_BASE")}" ;;
  esac
}

# A service runs under its supervisor (bin/lib/supervise.sh), which restarts it when it exits.
wc_service_running() { wc_pid_alive "$WC_RUN/$1.supervisor.pid"; }

# wc_service_restarts SVC — how often its supervisor restarted it since the stack started (0 when never).
wc_service_restarts() {
  local count=0
  [[ -s $WC_RUN/$1.restarts ]] && read -r count _ <"$WC_RUN/$1.restarts"
  printf '%s\n' "${count:-0}"
}
wc_service_ready() { curl -sf -o /dev/null "http://127.0.0.1:${WC_PORT[$1]}/q/health/ready"; }

wc_start_service() {
  local svc=$1
  if wc_service_running "$svc"; then
    return 0
  fi
  wc_stop_pid "$svc" "$WC_RUN/$svc.pid" # a service left behind by a supervisor that was killed
  rm -f "$WC_RUN/$svc.restarts" # restarts count from here
  if curl -s -o /dev/null "http://127.0.0.1:${WC_PORT[$svc]}/"; then
    wc_die "port ${WC_PORT[$svc]} of $svc is taken by a process bin/workcell did not start"
  fi
  # env -i: a service sees its own settings, never the operator's shell (or another service's secrets).
  mapfile -t env_lines < <(wc_service_env "$svc")
  # A running service reads its jars lazily: it runs from its own copy in the state folder, so a
  # rebuild of the checkout (mvn verify, bin/workcell test) never swaps classes under it.
  local app=$WC_STATE/app/$svc
  rm -rf "$app" && mkdir -p "$WC_STATE/app" && cp -a "$(dirname "$(wc_jar "$svc")")" "$app"
  # A class-data archive per service, written at its first clean exit, shortens every later start.
  mkdir -p "$WC_STATE/cds"
  local trim mmap=()
  trim=$(wc_trim_opts)
  [[ $WC_MALLOC_MMAP_THRESHOLD == 0 ]] || mmap=(MALLOC_MMAP_THRESHOLD_="$WC_MALLOC_MMAP_THRESHOLD")
  # The supervisor keeps the JVM running (it still exits on out-of-memory: a supervised process should).
  setsid bash "$ROOT/bin/lib/supervise.sh" "$svc" "$WC_RUN" "$WC_LOGS" \
    env -i PATH=/usr/bin:/bin HOME="$WC_STATE" LANG=C.UTF-8 MALLOC_ARENA_MAX="$WC_MALLOC_ARENA_MAX" "${mmap[@]}" "${env_lines[@]}" \
    "$JAVA_HOME/bin/java" $WC_JAVA_OPTS $trim ${WC_SERVICE_JAVA_OPTS[$svc]:-} -XX:+AutoCreateSharedArchive -XX:SharedArchiveFile="$WC_STATE/cds/$svc.jsa" \
    -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$app/quarkus-run.jar" >/dev/null 2>&1 </dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
  echo $! >"$WC_RUN/$svc.supervisor.pid"
}

# wc_stop_service SVC [RUN_DIR] — stops the supervisor (which stops the service), then whatever is left.
wc_stop_service() {
  local svc=$1 run=${2:-$WC_RUN}
  wc_stop_pid "$svc supervisor" "$run/$svc.supervisor.pid"
  wc_stop_pid "$svc" "$run/$svc.pid"
}

# wc_start_services [SVC...] — starts the services (every one by default), then shows one progress
# line until all are ready (or one fails).
wc_start_services() {
  local svc start=$SECONDS limit=${WORKCELL_START_TIMEOUT:-90} ready pending line last=
  local -a svcs=("$@")
  ((${#svcs[@]})) || svcs=("${WC_SERVICES[@]}")
  local -A restarts=()
  for svc in "${svcs[@]}"; do
    wc_start_service "$svc"
    restarts[$svc]=$(wc_service_restarts "$svc")
  done
  while :; do
    ready=0 pending=()
    for svc in "${svcs[@]}"; do
      if ! wc_service_running "$svc" || (($(wc_service_restarts "$svc") > ${restarts[$svc]})); then
        printf '\n' >&2
        tail -n 30 "$WC_LOGS/$svc.crashed.log" 2>/dev/null >&2 || tail -n 30 "$WC_LOGS/$svc.log" >&2
        wc_die "$svc exited during start (log: $WC_LOGS/$svc.crashed.log)"
      fi
      if wc_service_ready "$svc"; then ready=$((ready + 1)); else pending+=("${svc%-service}"); fi
    done
    line=$(printf 'services ready: %d/%d after %d s %s' "$ready" "${#svcs[@]}" "$((SECONDS - start))" \
      "${pending:+(waiting: ${pending[*]})}")
    # On a terminal one line updates in place; in a log a line is written only when the count changes.
    if [[ -t 2 ]]; then printf '\r    %-110s' "$line" >&2
    elif [[ $ready != "${last:-}" ]]; then printf '    %s\n' "$line" >&2; last=$ready; fi
    ((ready == ${#svcs[@]})) && break
    if ((SECONDS - start >= limit)); then
      printf '\n' >&2
      wc_die "not ready after $limit s: ${pending[*]} (see bin/workcell logs SERVICE)"
    fi
    sleep 0.25
  done
  [[ -t 2 ]] && printf '\n' >&2
  wc_info "all ${#svcs[@]} services ready in $((SECONDS - start)) s"
}

wc_stop_services() {
  local svc
  for svc in "${WC_SERVICES[@]}"; do
    wc_stop_service "$svc"
  done
}

# wc_cli ARGS... — the admin CLI (tokens, pings) against the stack's bus, as NATS user `cli`.
wc_cli() {
  env WORKCELL_NATS_URL="nats://127.0.0.1:$WC_NATS_PORT" WORKCELL_STATE="$WC_STATE" \
    WORKCELL_NATS_USER="${WORKCELL_NATS_USER:-cli}" WORKCELL_NATS_PASSWORD="${WORKCELL_NATS_PASSWORD:-$(wc_secret nats-cli)}" \
    "$JAVA_HOME/bin/java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$(wc_cli_jar)" "$@"
}

# The JWT key pair of the stack's own issuer.
wc_ensure_keys() {
  if [[ ! -s $WC_KEYS/jwt-private.pem ]]; then
    (umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WC_KEYS/jwt-private.pem" 2>/dev/null)
    openssl pkey -in "$WC_KEYS/jwt-private.pem" -pubout -out "$WC_KEYS/jwt-public.pem" 2>/dev/null
  fi
  wc_secret terminal-server-key >/dev/null
}

# A cached admin token, renewed when older than 6 hours (tokens live 12).
wc_admin_token() {
  local file=$WC_SECRETS/admin.token
  if [[ ! -s $file || -n $(find "$file" -mmin +360 2>/dev/null) ]]; then
    (umask 077 && wc_cli token --user admin --role admin --ttl 12h >"$file.tmp") && mv "$file.tmp" "$file"
  fi
  cat "$file"
}
