# shellcheck shell=bash
# The compose stack end to end (`bin/workcell test` step 5, or `bin/workcell test compose` alone), on
# images built here (NATS, PostgreSQL and the socket proxy from Debian packages: no public registry is
# needed). Both engine-access variants of docs/compose.md, each under a project name of its own (never
# the launcher's stack, other host ports):
#   A, the socket in sandbox-service: every service healthy, an admin token from the CLI, a task's file
#     round trip, a scripted agent run against a fixture model on the host, an honest failure without a
#     provider, the Open Terminal client checks, and from inside a sandbox none of NATS, PostgreSQL,
#     the services or the published ports answers (while a container on the backend network reaches
#     them all);
#   B, the socket proxy: the same file round trip through the proxy, engine calls outside the allowed
#     ones refused by the proxy (403) from inside sandbox-service, which holds no socket, and the proxy
#     unreachable from a sandbox.
# After each, `down -v` (after the sandboxes sandbox-service made) leaves no container, volume,
# network or disk mount behind. Reports through wt_check (bin/lib/test.sh). Sourced; defines functions only.

TC_PORT=${WORKCELL_COMPOSE_TEST_PORT:-18580}
TC_READY_LIMIT=${WORKCELL_COMPOSE_READY_LIMIT:-90}
TC_MODEL_PORT=${WORKCELL_COMPOSE_MODEL_PORT:-18599}
TC_PROJECT= TC_VARIANT= TC_TOKEN= TC_TASK= TC_RUN=

tc_dc() {
  local -a files=(-f "$ROOT/docker/compose.yaml")
  [[ $TC_VARIANT == proxy ]] && files+=(-f "$ROOT/docker/compose.socket-proxy.yaml")
  docker-compose "${files[@]}" -p "$TC_PROJECT" "$@"
}

# Everything of the test's project: compose's own resources and what sandbox-service made for its
# instance (sandboxes, their volumes, celld's volume, the sandbox network).
tc_leftovers() {
  docker ps -aq --filter "label=com.docker.compose.project=$TC_PROJECT"
  docker ps -aq --filter "label=dev.workcell.instance=$TC_PROJECT"
  docker volume ls -q --filter "label=com.docker.compose.project=$TC_PROJECT"
  docker volume ls -q --filter "label=dev.workcell.instance=$TC_PROJECT"
  docker network ls -q --filter "label=com.docker.compose.project=$TC_PROJECT"
  docker network ls -q --filter "name=^workcell-$TC_PROJECT-sandbox\$"
}

# The documented teardown (docs/compose.md): stop the services, remove the sandboxes of this
# instance and the sandbox network, then `down -v`.
tc_down() {
  tc_dc stop >/dev/null 2>&1 || true
  docker ps -aq --filter "label=dev.workcell.instance=$TC_PROJECT" | xargs -r docker rm -f >/dev/null
  docker volume ls -q --filter "label=dev.workcell.instance=$TC_PROJECT" | xargs -r docker volume rm >/dev/null
  remove_sandbox_disks "$TC_PROJECT"
  docker network rm "workcell-$TC_PROJECT-sandbox" >/dev/null 2>&1 || true
  tc_dc --profile cli down -v --remove-orphans >/dev/null 2>&1
}

# Seconds from each service container's start to its health check's first success, and the JVM's
# own "started in" line.
tc_start_times() {
  local svc id started first jvm
  for svc in task-service sandbox-service agent-runner-service gateway-service preview-proxy-service terminal-service sandbox-mirror; do
    id=$(tc_dc ps -q "$svc")
    started=$(docker inspect -f '{{.State.StartedAt}}' "$id")
    first=$(docker inspect -f '{{range .State.Health.Log}}{{if eq .ExitCode 0}}{{.End}}{{"\n"}}{{end}}{{end}}' "$id" | head -n 1)
    jvm=$(docker logs "$id" 2>&1 | sed -n 's/.* started in \([0-9.]*s\).*/\1/p' | head -n 1)
    printf '    %-24s healthy %5.1f s after its start (health checks every 5 s), Quarkus started in %s\n' "$svc" \
      "$(awk -v a="$(date -d "$started" +%s.%N)" -v b="$(date -d "${first% UTC}" +%s.%N)" 'BEGIN { print b - a }')" "${jvm:-?}" >&2
  done
}

tc_all_healthy() {
  local id n=0
  for id in $(tc_dc ps -q); do
    [[ $(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$id") == unhealthy ]] && return 1
    [[ $(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{end}}' "$id") == healthy ]] && n=$((n + 1))
  done
  ((n == 9)) # seven services, PostgreSQL and the S3 server
}

tc_api() { # tc_api METHOD PATH [BODY] — prints the body, fails unless 2xx
  local -a args=(-sf --max-time 90 -X "$1" -H "Authorization: Bearer $TC_TOKEN")
  [[ -z ${3-} ]] || args+=(-H 'Content-Type: application/json' --data-binary "$3")
  curl "${args[@]}" "http://127.0.0.1:$TC_PORT$2"
}

# tc_new_task MODEL PROVIDER — a task whose first run asks MODEL; sets TC_TASK and TC_RUN.
tc_new_task() {
  local body
  body=$(tc_api POST /api/work/tasks "{\"message\":\"compose check\",\"provider\":\"$2\",\"model\":\"$1\",\"title\":\"compose check\"}") || return 1
  TC_TASK=$(wt_json task.id <<<"$body")
  TC_RUN=$(wt_json run.id <<<"$body")
  [[ -n $TC_TASK && -n $TC_RUN ]]
}

# tc_run_events — the run's live stream until its done event (30 s at most).
tc_run_events() {
  curl -s -N --max-time 30 -H "Authorization: Bearer $TC_TOKEN" \
    "http://127.0.0.1:$TC_PORT/api/work/tasks/$TC_TASK/runs/$TC_RUN/events"
}

tc_task_file_round_trip() {
  tc_new_task qwen3:8b openai || return 1
  tc_api PUT "/api/work/tasks/$TC_TASK/file" '{"path":"notes/hello.txt","content":"hello from compose\n","createParents":true}' >/dev/null || return 1
  tc_api GET "/api/work/tasks/$TC_TASK/file?path=notes/hello.txt" | grep -q '"content":"hello from compose\\n"'
}

# The file tc_task_file_round_trip wrote in the task's sandbox reaches the bucket through sandbox-mirror
# (the read-only disk bind, then S3) within 30 s: read back from the S3 server's own store
# (s3proxy's filesystem backend keeps object KEY of BUCKET at /data/BUCKET/KEY).
tc_mirror_copies_a_sandbox_file() {
  local s3 object deadline=$((SECONDS + 30))
  s3=$(tc_dc ps -q s3)
  object=/data/${WORKCELL_S3_BUCKET:-workcell-mirror}/tasks/$TC_TASK/notes/hello.txt
  while ((SECONDS < deadline)); do
    [[ $(docker exec "$s3" cat "$object" 2>/dev/null) == 'hello from compose' ]] && return 0
    sleep 1
  done
  printf '      %s not in the bucket after 30 s; sandbox-mirror says: %s\n' "$object" \
    "$(docker exec "$(tc_dc ps -q sandbox-mirror)" bash -c 'exec 3<>/dev/tcp/127.0.0.1/8080 && printf "GET /mirror/status HTTP/1.0\r\n\r\n" >&3 && tail -n 1 <&3')" >&2
  return 1
}

# The task's disk was mounted after sandbox-mirror started (the task is made once the stack is
# healthy), so it reached the mirror through propagation: it must still be read-only there (sandbox-
# service attaches a clone made read-only before it was attached, decision 0021), and show what the
# sandbox wrote. The mirror's user owns the folder, so a refused write is the mount's doing, not a
# permission: it must fail with EROFS.
tc_later_disk_is_read_only_in_mirror() {
  local id data=/var/lib/workcell/disks/$TC_PROJECT/workcell-ws-$TC_TASK/mnt out
  id=$(tc_dc ps -q sandbox-mirror)
  out=$(docker exec "$id" bash -c 'awk -v d="$1" '"'"'$5 == d { print $6, $7 }'"'"' /proc/self/mountinfo
    cat "$1/data/notes/hello.txt"
    echo probe >"$1/data/notes/from-mirror.txt" && echo "write succeeded"
    mkdir "$1/data/from-mirror" && echo "mkdir succeeded"
    true' bash "$data" 2>&1)
  printf '      in sandbox-mirror: %s\n' "$(tr '\n' ' ' <<<"$out")" >&2
  grep -q '^ro,[^ ]* master:' <<<"$out" && grep -qx 'hello from compose' <<<"$out" &&
    [[ $(grep -c 'Read-only file system' <<<"$out") == 2 ]] && ! grep -q succeeded <<<"$out"
}

# sandbox-mirror gets the disks' read-only view (<disk root>/.read-only) as a read-only bind (rslave)
# and runs as the sandboxes' user with no capability; the S3 identity is in the S3 server's and
# sandbox-mirror's secrets only.
tc_mirror_is_confined() {
  local id mounts holders svc
  id=$(tc_dc ps -q sandbox-mirror)
  mounts=$(docker inspect -f '{{range .Mounts}}{{if eq .Destination "/var/lib/workcell/disks"}}{{.Source}} {{.RW}} {{.Propagation}}{{end}}{{end}}' "$id")
  [[ $mounts == "$(sd_root)/.read-only false rslave" ]] || { printf '      disk root mount: %s\n' "${mounts:-none}" >&2; return 1; }
  [[ $(docker inspect -f '{{.Config.User}} {{.HostConfig.CapAdd}}' "$id") == "${WORKCELL_SANDBOX_UID:-1000}:${WORKCELL_SANDBOX_UID:-1000} []" ]] || return 1
  holders=
  for svc in $(tc_dc ps --services); do
    id=$(tc_dc ps -q "$svc")
    [[ -n $id ]] && docker exec "$id" test -e /run/workcell/secrets/s3-secret-key 2>/dev/null && holders+="$svc "
  done
  [[ $holders == 's3 sandbox-mirror ' || $holders == 'sandbox-mirror s3 ' ]] || { printf '      S3 key holders: %s\n' "$holders" >&2; return 1; }
}

# No OpenAI provider is configured, so that task's run ends failed with provider_not_found.
tc_run_ends_honestly() {
  local events
  events=$(tc_run_events)
  grep -q '"code":"provider_not_found"' <<<"$events" && grep -q '"type":"done".*"state":"failed"' <<<"$events"
}

# A scripted agent run: the fixture model on the host (bin/lib/e2e/runs_ollama_fixture.py, model
# "life-…") has agent-runner write result.txt in the sandbox through the tools, then answers.
tc_agent_run() {
  local events
  tc_new_task life-compose ollama || return 1
  events=$(tc_run_events)
  grep -q '"type":"done".*"state":"completed"' <<<"$events" || { printf '      events: %s\n' "$events" >&2; return 1; }
  tc_api GET "/api/work/tasks/$TC_TASK/file?path=result.txt" | grep -q '"content":"made by life-compose\\n"'
}

tc_secrets_not_in_images() {
  local svc
  for svc in gateway-service task-service cli; do
    ! docker image inspect -f '{{.Config.Env}}' "$(img_service_image "$svc")" | grep -qi 'password\|private'
  done
  ! docker inspect -f '{{.Config.Env}}' "$(tc_dc ps -q task-service)" | grep -q 'QUARKUS_DATASOURCE_PASSWORD'
}

tc_runs_read_only_as_non_root() {
  local id
  id=$(tc_dc ps -q gateway-service)
  [[ $(docker inspect -f '{{.HostConfig.ReadonlyRootfs}} {{.Config.User}}' "$id") == 'true 10001:10001' ]]
}

# tc_jvm_options_are_the_launchers — every service's JVM (pid 1 of its container) trims its native
# heap every 30 s and runs with the options bin/workcell gives that service (WC_SERVICE_JAVA_OPTS):
# the image and compose cannot lose the launcher's memory settings unnoticed (docs/limits.md).
tc_jvm_options_are_the_launchers() {
  local svc id cmd
  for svc in "${WC_SERVICES[@]}"; do
    id=$(tc_dc ps -q "$svc") && [[ -n $id ]] || return 1
    cmd=$(docker exec "$id" cat /proc/1/cmdline | tr '\0' ' ') || return 1
    # The image's JAVA_OPTS end with the trim; the service's own follow it, then -jar.
    if [[ $cmd != *" -XX:TrimNativeHeapInterval=30000 ${WC_SERVICE_JAVA_OPTS[$svc]:+${WC_SERVICE_JAVA_OPTS[$svc]} }-jar "* ]]; then
      echo "$svc runs: $cmd" >&2
      return 1
    fi
  done
}

# tc_socket_holders — the compose services that mount the engine's socket.
tc_socket_holders() {
  local id
  for id in $(tc_dc ps -q); do
    if docker inspect -f '{{range .Mounts}}{{.Source}} {{end}}' "$id" | grep -q 'docker\.sock'; then
      docker inspect -f '{{index .Config.Labels "com.docker.compose.service"}}' "$id"
    fi
  done
}

# The stack's secrets (the init job's state volume), copied out for the Open Terminal client's
# "no stack secret inside a sandbox" checks.
tc_copy_secrets() { # tc_copy_secrets DIR
  docker run --rm --network none -v "${TC_PROJECT}_state:/state:ro" --entrypoint tar \
    "workcell/compose-init:$(img_version)" -C /state -cf - . | tar -xf - -C "$1"
}

# tc_probe_script HOST:PORT... — a bash script that prints "open T" or "closed T" for each target
# (a TCP connect within 3 s), and "route yes|no" for whether the container has a default route.
tc_probe_script() {
  local t script='awk '"'"'$2 == "00000000" { r = 1 } END { print "route", (r ? "yes" : "no") }'"'"' /proc/net/route;'
  for t in "$@"; do
    script+=" if timeout 3 bash -c 'exec 3<>/dev/tcp/${t%:*}/${t##*:}' 2>/dev/null; then echo open $t; else echo closed $t; fi;"
  done
  printf '%s\n' "$script"
}

# tc_targets NETWORK PORT... — IP:PORT of every container of the project on that compose network
# (NATS 4222, PostgreSQL 5432, the services 8080, the proxy 2375: whatever each listens on).
tc_targets() {
  local net=${TC_PROJECT}_$1 id name ip
  for id in $(docker network inspect -f '{{range $k, $v := .Containers}}{{$k}} {{end}}' "$net"); do
    name=$(docker inspect -f '{{index .Config.Labels "com.docker.compose.service"}}' "$id")
    ip=$(docker inspect -f "{{(index .NetworkSettings.Networks \"$net\").IPAddress}}" "$id")
    case $name in
      nats) echo "$ip:4222" ;;
      postgres) echo "$ip:5432" ;;
      docker-proxy) echo "$ip:2375" ;;
      s3) echo "$ip:8080" ;;
      *-service | sandbox-mirror) echo "$ip:8080" ;;
    esac
  done
}

# tc_sandbox_run COMMAND — runs COMMAND in a user's Open Terminal sandbox; prints its output.
tc_sandbox_run() {
  local key body
  key=$(tc_dc run --rm -T --entrypoint cat cli /run/workcell/secrets/terminal-server-key 2>/dev/null) || return 1
  body=$(python3 -c 'import json, sys; print(json.dumps({"command": sys.argv[1]}))' "$1")
  curl -sf --max-time 120 -X POST -H "Authorization: Bearer $key" -H 'X-User-Id: compose-probe' \
    -H 'Content-Type: application/json' --data-binary "$body" \
    "http://127.0.0.1:$TC_PORT/api/open-terminal/execute?wait=60" |
    python3 -c 'import json, sys; print("".join(e.get("data", "") for e in json.load(sys.stdin).get("output", [])).replace("\r", ""))'
}

# From inside a sandbox nothing of the stack answers: every target is closed although the sandbox has
# a network (a default route), while the same probe from a container on the stack's own network finds
# every target open (so a closed port means blocked, not absent). NETWORK names the stack's network
# the targets are on; the host's ports (the sandbox network's gateway) are probed too.
tc_unreachable_from_sandbox() { # NETWORK
  local -a targets
  local gateway control inside t
  mapfile -t targets < <(tc_targets "$1")
  ((${#targets[@]} > 0)) || return 1
  control=$(docker run --rm --network "${TC_PROJECT}_$1" --entrypoint bash "workcell/compose-init:$(img_version)" \
    -c "$(tc_probe_script "${targets[@]}")") || return 1
  for t in "${targets[@]}"; do
    grep -qx "open $t" <<<"$control" || { printf '      control: %s not open from the %s network\n' "$t" "$1" >&2; return 1; }
  done
  gateway=$(docker network inspect -f '{{range .IPAM.Config}}{{.Gateway}}{{end}}' "workcell-$TC_PROJECT-sandbox" 2>/dev/null)
  [[ -z $gateway ]] || targets+=("$gateway:$TC_PORT" "$gateway:4222" "$gateway:5432" "$gateway:2375")
  inside=$(tc_sandbox_run "$(tc_probe_script "${targets[@]}")") || return 1
  printf '      from a sandbox: %s\n' "$(tr '\n' ' ' <<<"$inside")" >&2
  grep -qx 'route yes' <<<"$inside" || return 1
  for t in "${targets[@]}"; do
    grep -qx "closed $t" <<<"$inside" || return 1
  done
}

# tc_engine_call METHOD PATH — the status code the socket proxy answers sandbox-service's container.
tc_engine_call() {
  docker exec "$(tc_dc ps -q sandbox-service)" bash -c \
    'exec 3<>/dev/tcp/docker-proxy/2375 && printf "%s %s HTTP/1.0\r\nHost: docker\r\nContent-Length: 0\r\n\r\n" "$0" "$1" >&3 && head -n 1 <&3' \
    "$1" "$2" | awk '{ print $2 }'
}

# Through the proxy sandbox-service may ping the engine, and nothing outside the driver's calls.
tc_proxy_refuses() {
  local call code
  code=$(tc_engine_call GET /v1.41/_ping)
  [[ $code == 200 ]] || { printf '      GET /_ping answered %s\n' "$code" >&2; return 1; }
  for call in 'POST /v1.41/images/create?fromImage=busybox' 'POST /v1.41/build' 'GET /v1.41/events' \
    'GET /v1.41/secrets' 'POST /v1.41/containers/x/update' 'PUT /v1.41/containers/x/archive?path=/' \
    'POST /v1.41/networks/x/connect' 'POST /v1.41/commit?container=x' 'GET /v1.41/system/df' \
    'GET /v1.41/containers/x/../../secrets'; do
    code=$(tc_engine_call ${call% *} "${call#* }")
    [[ $code == 403 ]] || { printf '      %s answered %s\n' "$call" "$code" >&2; return 1; }
  done
}

tc_nothing_left() {
  local left
  left=$(tc_leftovers | sort -u; awk -v a="$(sd_root)/$TC_PROJECT/" -v b="$(sd_root)/.read-only/$TC_PROJECT/" \
    'index($5, a) == 1 || index($5, b) == 1 { print $5 }' /proc/self/mountinfo)
  [[ -z $left ]] || { printf '      left behind: %s\n' $left >&2; return 1; }
}

# tc_up — starts the variant's stack and waits until it is healthy (a failed check otherwise).
tc_up() {
  local start=$SECONDS up_at
  tc_down # a run that was interrupted
  if ! tc_dc up -d >>"$WC_LOGS/compose-test.log" 2>&1; then
    tail -n 20 "$WC_LOGS/compose-test.log" >&2
    return 1
  fi
  up_at=$SECONDS
  if ! wc_wait_for "$TC_READY_LIMIT" "compose stack ($TC_VARIANT)" tc_all_healthy; then
    tc_dc ps >&2
    tc_dc logs --tail 30 >>"$WC_LOGS/compose-test.log" 2>&1
    return 1
  fi
  wc_info "healthy $((SECONDS - start)) s after 'up' began ($((up_at - start)) s of it in 'up' itself)"
  tc_start_times
  TC_TOKEN=$(tc_dc run --rm -T cli token --user admin --role admin 2>>"$WC_LOGS/compose-test.log" | tail -n 1)
}

# tc_up_checked NAME — tc_up as a check of its own, its timings on the console; fails when not up.
tc_up_checked() {
  local rc=0
  tc_up || rc=$?
  wt_check "$1: every service healthy within $TC_READY_LIMIT s, an admin token from the CLI" test "$rc" -eq 0 -a -n "$TC_TOKEN"
  ((rc == 0)) && [[ -n $TC_TOKEN ]]
}

tc_variant_socket() {
  TC_VARIANT=socket TC_PROJECT=${WORKCELL_COMPOSE_TEST_PROJECT:-workcell-compose-test}
  export WORKCELL_COMPOSE_INSTANCE=$TC_PROJECT
  wc_say "compose stack '$TC_PROJECT' on 127.0.0.1:$TC_PORT (the socket in sandbox-service)"
  trap tc_down EXIT
  tc_up_checked "compose" || { tc_down; trap - EXIT; return 0; }
  wt_check "compose: the admin token works at the gateway" tc_api GET /api/auth/me
  wt_check "compose: a task is created and a file written and read back in its sandbox" tc_task_file_round_trip
  wt_check "compose: that file reaches the S3 bucket through sandbox-mirror within 30 s" tc_mirror_copies_a_sandbox_file
  wt_check "compose: a disk mounted after sandbox-mirror started is read-only in it (EROFS) and shows the sandbox's file" \
    tc_later_disk_is_read_only_in_mirror
  wt_check "compose: sandbox-mirror has the disks' read-only view as a read-only rslave bind, uid 1000, no capability; only it and the S3 server hold the S3 key" \
    tc_mirror_is_confined
  wt_check "compose: its run ends failed (no such provider configured)" tc_run_ends_honestly
  wt_check "compose: a scripted agent run writes its file through the tools and completes" tc_agent_run
  wt_check "compose: secrets are neither in an image nor in a container's environment" tc_secrets_not_in_images
  wt_check "compose: services run as 10001 on a read-only root" tc_runs_read_only_as_non_root
  wt_check "compose: every service's JVM trims its native heap and has the launcher's options of that service" \
    tc_jvm_options_are_the_launchers
  wt_check "compose: only sandbox-service has the Docker socket" eval '[[ $(tc_socket_holders) == sandbox-service ]]'
  wt_check "compose: from a sandbox, NATS, PostgreSQL, the S3 server, the services and the host's ports are unreachable" \
    tc_unreachable_from_sandbox backend
  local secrets
  secrets=$(mktemp -d)
  if tc_copy_secrets "$secrets"; then
    WC_SECRETS=$secrets WC_KEYS=$secrets wt_open_terminal_checks "http://127.0.0.1:$TC_PORT" "$(cat "$secrets/terminal-server-key")"
  else
    wt_check "compose: the stack's secrets can be read for the Open Terminal checks" false
  fi
  rm -rf "$secrets"
  trap - EXIT
  tc_down
  wt_check "compose: down -v leaves no container, volume or network behind" tc_nothing_left
}

tc_variant_proxy() {
  TC_VARIANT=proxy TC_PROJECT=${WORKCELL_COMPOSE_TEST_PROJECT:-workcell-compose-test}-proxy
  export WORKCELL_COMPOSE_INSTANCE=$TC_PROJECT WORKCELL_SOCKET_PROXY_IMAGE=workcell/socket-proxy:$(img_version)
  wc_say "compose stack '$TC_PROJECT' on 127.0.0.1:$TC_PORT (the socket proxy)"
  trap tc_down EXIT
  tc_up_checked "compose proxy" || { tc_down; trap - EXIT; return 0; }
  wt_check "compose proxy: a task's sandbox is made through the proxy, a file written and read back" tc_task_file_round_trip
  wt_check "compose proxy: only the proxy has the Docker socket" eval '[[ $(tc_socket_holders) == docker-proxy ]]'
  wt_check "compose proxy: engine calls outside the driver's are refused by the proxy (403)" tc_proxy_refuses
  wt_check "compose proxy: from a sandbox, the proxy is unreachable" tc_unreachable_from_sandbox engine
  trap - EXIT
  tc_down
  wt_check "compose proxy: down -v leaves no container, volume or network behind" tc_nothing_left
}

# wt_compose_checks — both variants; the images are built first (their sizes in the images log).
wt_compose_checks() {
  source "$ROOT/bin/lib/images.sh"
  command -v docker-compose >/dev/null 2>&1 || de_apt_install docker-compose || wc_die "docker-compose is missing"
  local version model_host rc=0
  build_images --infra || rc=$?
  wt_check "compose: the images build" test "$rc" -eq 0
  ((rc == 0)) || return 0
  ensure_sandbox_image || wc_die "sandbox image build failed"
  ensure_sandbox_firewall
  ensure_sandbox_disk_root || wc_die "the sandboxes' disk root is not a shared mount"
  version=$(img_version)
  # The fixture model listens on the Docker bridge's address: agent-runner reaches it as
  # host.docker.internal (the host gateway), and nothing outside this machine can.
  model_host=$(ip -4 -o addr show docker0 | awk '{ sub(/\/.*/, "", $4); print $4; exit }')
  wt_fixture_start compose-model "$WC_RUN" "http://$model_host:$TC_MODEL_PORT/api/version" \
    "$ROOT/bin/lib/e2e/runs_ollama_fixture.py" --host "$model_host" --port "$TC_MODEL_PORT" ||
    wt_check "compose: the fixture model starts" false
  export WORKCELL_VERSION=$version WORKCELL_COMPOSE_PORT=$TC_PORT \
    WORKCELL_COMPOSE_PREVIEW_PORT=$((TC_PORT + 4)) WORKCELL_COMPOSE_TERMINAL_PORT=$((TC_PORT + 5)) \
    WORKCELL_NATS_IMAGE=workcell/nats:$version WORKCELL_POSTGRES_IMAGE=workcell/postgres:$version \
    WORKCELL_DOCKER_GID=$(stat -c %g /var/run/docker.sock) WORK_OLLAMA_URL=http://host.docker.internal:$TC_MODEL_PORT
  : >"$WC_LOGS/compose-test.log"
  tc_variant_socket
  tc_variant_proxy
  wc_stop_pid compose-model "$WC_RUN/compose-model.pid"
}

