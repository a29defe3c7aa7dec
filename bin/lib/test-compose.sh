# shellcheck shell=bash
# `bin/workcell test compose`: the compose stack end to end, on images built here (NATS and
# PostgreSQL from Debian packages: no public registry is needed). Builds the images, starts
# docker/compose.yaml under a project name of its own (never the launcher's stack, other host ports),
# waits until every service is healthy, issues an admin token with the CLI, creates a task through
# the gateway, writes and reads back a file in its sandbox, and checks that `down -v` (after the
# sandboxes sandbox-service made) leaves no container, volume or network behind.
# Sourced by bin/workcell; defines functions only.

TC_PROJECT=${WORKCELL_COMPOSE_TEST_PROJECT:-workcell-compose-test}
TC_PORT=${WORKCELL_COMPOSE_TEST_PORT:-18580}
TC_READY_LIMIT=${WORKCELL_COMPOSE_READY_LIMIT:-60}
TC_FAILED=0

tc_dc() { docker-compose -f "$ROOT/docker/compose.yaml" -p "$TC_PROJECT" "$@"; }
tc_check() { # tc_check NAME CMD... — one line per check, the failure counted
  local name=$1
  shift
  if "$@"; then printf '    ok    %s\n' "$name" >&2; else printf '    FAIL  %s\n' "$name" >&2; TC_FAILED=1; fi
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
  ((n == 8)) # seven services and PostgreSQL
}

tc_api() { # tc_api METHOD PATH [BODY] — prints the body, fails unless 2xx
  local -a args=(-sf --max-time 90 -X "$1" -H "Authorization: Bearer $TC_TOKEN")
  [[ -z ${3-} ]] || args+=(-H 'Content-Type: application/json' --data-binary "$3")
  curl "${args[@]}" "http://127.0.0.1:$TC_PORT$2"
}

tc_task_file_round_trip() {
  local body task
  body=$(tc_api POST /api/work/tasks '{"message":"compose check","provider":"ollama","model":"qwen3:8b","title":"compose check"}') || return 1
  task=$(sed -n 's/.*"task":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$body")
  [[ -n $task ]] || return 1
  TC_TASK=$task
  TC_RUN=$(sed -n 's/.*"run":{"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$body")
  tc_api PUT "/api/work/tasks/$task/file" '{"path":"notes/hello.txt","content":"hello from compose\n","createParents":true}' >/dev/null || return 1
  tc_api GET "/api/work/tasks/$task/file?path=notes/hello.txt" | grep -q '"content":"hello from compose\\n"'
}

# No provider is configured, so the run must end failed with provider_not_found: the JetStream
# work queue, agent-runner and the event stream work in the compose stack too.
tc_run_ends_honestly() {
  local events
  [[ -n ${TC_RUN:-} ]] || return 1
  events=$(curl -s -N --max-time 30 -H "Authorization: Bearer $TC_TOKEN" \
    "http://127.0.0.1:$TC_PORT/api/work/tasks/$TC_TASK/runs/$TC_RUN/events")
  grep -q '"code":"provider_not_found"' <<<"$events" && grep -q '"type":"done".*"state":"failed"' <<<"$events"
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

tc_only_sandbox_service_has_the_socket() {
  local id mounts
  for id in $(tc_dc ps -q); do
    mounts=$(docker inspect -f '{{range .Mounts}}{{.Source}} {{end}}' "$id")
    if [[ $mounts == *docker.sock* ]]; then
      [[ $(docker inspect -f '{{index .Config.Labels "com.docker.compose.service"}}' "$id") == sandbox-service ]] || return 1
    fi
  done
}

tc_nothing_left() {
  local left
  left=$(tc_leftovers | sort -u)
  [[ -z $left ]] || { printf '      left behind: %s\n' $left >&2; return 1; }
}

test_compose() {
  source "$ROOT/bin/lib/images.sh"
  command -v docker-compose >/dev/null 2>&1 || de_apt_install docker-compose || wc_die "docker-compose is missing"
  local version start up_at
  build_images --infra || wc_die "image build failed"
  ensure_sandbox_image || wc_die "sandbox image build failed"
  ensure_sandbox_disk_root || wc_die "the sandboxes' disk root is not a shared mount"
  version=$(img_version)
  export WORKCELL_VERSION=$version WORKCELL_COMPOSE_INSTANCE=$TC_PROJECT WORKCELL_COMPOSE_PORT=$TC_PORT \
    WORKCELL_COMPOSE_PREVIEW_PORT=$((TC_PORT + 4)) WORKCELL_COMPOSE_TERMINAL_PORT=$((TC_PORT + 5)) \
    WORKCELL_NATS_IMAGE=workcell/nats:$version WORKCELL_POSTGRES_IMAGE=workcell/postgres:$version \
    WORKCELL_DOCKER_GID=$(stat -c %g /var/run/docker.sock)
  wc_say "compose stack '$TC_PROJECT' on 127.0.0.1:$TC_PORT"
  tc_down # a run that was interrupted
  trap tc_down EXIT
  start=$SECONDS
  tc_dc up -d >"$WC_LOGS/compose-test.log" 2>&1 || { cat "$WC_LOGS/compose-test.log" >&2; wc_die "docker-compose up failed"; }
  up_at=$SECONDS
  if ! wc_wait_for "$TC_READY_LIMIT" "compose stack" tc_all_healthy; then
    tc_dc ps >&2
    tc_dc logs --tail 30 >&2
    wc_die "the compose stack was not healthy within $TC_READY_LIMIT s"
  fi
  wc_info "healthy $((SECONDS - start)) s after 'up' began ($((up_at - start)) s of it in 'up' itself)"
  tc_start_times
  TC_TOKEN=$(tc_dc run --rm -T cli token --user admin --role admin 2>>"$WC_LOGS/compose-test.log" | tail -n 1)
  tc_check "the CLI prints an admin token" test -n "$TC_TOKEN"
  tc_check "the token works at the gateway" eval "tc_api GET /api/auth/me >/dev/null"
  tc_check "a task is created and a file written and read back in its sandbox" tc_task_file_round_trip
  tc_check "its run ends failed (no provider configured)" tc_run_ends_honestly
  tc_check "secrets are neither in an image nor in a container's environment" tc_secrets_not_in_images
  tc_check "services run as 10001 on a read-only root" tc_runs_read_only_as_non_root
  tc_check "only sandbox-service has the Docker socket" tc_only_sandbox_service_has_the_socket
  trap - EXIT
  tc_down
  tc_check "down -v leaves no container, volume or network behind" tc_nothing_left
  ((TC_FAILED == 0)) || wc_die "compose checks failed (log: $WC_LOGS/compose-test.log)"
  wc_say "compose checks passed"
}
