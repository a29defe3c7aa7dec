# shellcheck shell=bash
# Docker engine for Workcell: reuse one that answers, otherwise install docker.io and start our own
# dockerd. Meant to be sourced (by bin/workcell, docker/sandbox/build.sh); defines functions only.
#
# Public:   ensure_docker_engine, stop_docker_engine
# Reads:    WORKCELL_STATE (default: <repo>/.workcell), DOCKER_HOST (a unix:// socket we may serve),
#           WORKCELL_DOCKERD_FLAGS (extra dockerd flags, split on spaces)
# Writes:   $WORKCELL_STATE/logs/dockerd.log, $WORKCELL_STATE/logs/apt.log,
#           $WORKCELL_STATE/run/dockerd.pid (exists only while a dockerd we started runs)

DE_ROOT=${DE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
DE_APT_UPDATED=${DE_APT_UPDATED:-0}

de_state() { printf '%s\n' "${WORKCELL_STATE:-$DE_ROOT/.workcell}"; }

# Progress for a person: "==> step" lines and indented detail lines, on stderr.
de_say() { printf '==> %s\n' "$*" >&2; }
de_info() { printf '    %s\n' "$*" >&2; }
de_err() { printf 'ERROR: %s\n' "$*" >&2; }

# Show the end of a log file after a failure, so the cause is visible without opening it.
de_show_log_tail() {
  local log=$1 lines=${2:-25}
  [[ -s $log ]] || return 0
  printf -- '---- last %s lines of %s ----\n' "$lines" "$log" >&2
  tail -n "$lines" "$log" >&2
  printf -- '----\n' >&2
}

# de_rotate_log LOG — keep one previous generation once a log passes 5 MB.
de_rotate_log() {
  local log=$1
  [[ -f $log ]] || return 0
  (($(stat -c %s "$log") > 5000000)) || return 0
  mv -f "$log" "$log.1"
}

# de_run_logged LOG CMD... — run CMD with its output appended to LOG; on failure show the log tail.
de_run_logged() {
  local log=$1 rc=0
  shift
  mkdir -p "$(dirname "$log")"
  printf '\n### %s: %s\n' "$(date -u +%FT%TZ)" "$*" >>"$log"
  "$@" >>"$log" 2>&1 </dev/null || rc=$?
  if ((rc != 0)); then
    de_err "'$*' failed (exit $rc)"
    de_show_log_tail "$log"
  fi
  return "$rc"
}

# de_apt_install PKG... — install Debian packages non-interactively; 'apt-get update' once per shell.
de_apt_install() {
  local log
  log="$(de_state)/logs/apt.log"
  if ! command -v apt-get >/dev/null 2>&1; then
    de_err "apt-get not found: install $* by hand"
    return 1
  fi
  if ((EUID != 0)); then
    de_err "installing $* needs root (run as root or install it first)"
    return 1
  fi
  if [[ $DE_APT_UPDATED != 1 ]]; then
    de_info "apt-get update (log: $log)"
    DEBIAN_FRONTEND=noninteractive de_run_logged "$log" apt-get update -q || return
    DE_APT_UPDATED=1
  fi
  de_info "apt-get install $* (log: $log)"
  DEBIAN_FRONTEND=noninteractive de_run_logged "$log" \
    apt-get install -y -q --no-install-recommends -o Dpkg::Options::=--force-confold "$@"
}

# True when a Docker engine answers on DOCKER_HOST or the default socket.
de_docker_answers() {
  command -v docker >/dev/null 2>&1 || return 1
  timeout 15 docker version >/dev/null 2>&1
}

de_pidfile() { printf '%s\n' "$(de_state)/run/dockerd.pid"; }

# Prints the pid of the dockerd we started, if it still runs.
de_our_dockerd_pid() {
  local pidfile pid
  pidfile=$(de_pidfile)
  [[ -s $pidfile ]] || return 1
  pid=$(<"$pidfile")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [[ $(cat "/proc/$pid/comm" 2>/dev/null) == dockerd ]] || return 1
  printf '%s\n' "$pid"
}

# dockerd flags this host needs: without working iptables or bridge creation the defaults fail.
de_dockerd_flags() {
  local -a flags=()
  if [[ -n ${DOCKER_HOST:-} ]]; then
    flags+=(-H "$DOCKER_HOST")
  fi
  if ! iptables -w -L -n >/dev/null 2>&1; then
    de_info "iptables is not usable here: dockerd runs with --iptables=false (no NAT, no ICC enforcement)" >&2
    flags+=(--iptables=false --ip-masq=false)
  fi
  if ! de_can_create_bridge; then
    de_info "cannot create a bridge here: dockerd runs with --bridge=none (only --network none/host work)" >&2
    flags+=(--bridge=none)
  fi
  if [[ -n ${WORKCELL_DOCKERD_FLAGS:-} ]]; then
    local -a extra
    read -r -a extra <<<"$WORKCELL_DOCKERD_FLAGS"
    flags+=("${extra[@]}")
  fi
  ((${#flags[@]} == 0)) || printf '%s\n' "${flags[@]}"
}

de_can_create_bridge() {
  # docker0 already there means dockerd made it before; otherwise try a throwaway bridge.
  ip link show docker0 >/dev/null 2>&1 && return 0
  local name="wcprobe$$"
  ip link add "$name" type bridge >/dev/null 2>&1 || return 1
  ip link del "$name" >/dev/null 2>&1 || true
}

ensure_docker_engine() {
  if de_docker_answers; then
    de_say "docker engine: reusing the one at ${DOCKER_HOST:-the default socket}"
    return 0
  fi
  if [[ -n ${DOCKER_HOST:-} && $DOCKER_HOST != unix://* ]]; then
    de_err "DOCKER_HOST=$DOCKER_HOST does not answer and is not a local socket Workcell could serve"
    return 1
  fi

  local state log pidfile
  state=$(de_state)
  log="$state/logs/dockerd.log"
  pidfile=$(de_pidfile)
  mkdir -p "$state/logs" "$state/run"

  if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
    de_say "docker engine: installing docker.io"
    de_apt_install docker.io || return
    hash -r
    if ! command -v dockerd >/dev/null 2>&1; then
      de_err "docker.io is installed but dockerd is not on PATH ($PATH)"
      return 1
    fi
  fi

  # A dockerd that is not ours may still be starting (e.g. systemd): give it the time instead of
  # racing it for the socket.
  if ! de_our_dockerd_pid >/dev/null && pgrep -x dockerd >/dev/null 2>&1; then
    de_say "docker engine: a dockerd is running but not answering yet, waiting for it"
    de_wait_for_docker 60 && return 0
    de_err "the running dockerd (pid $(pgrep -x dockerd | tr '\n' ' ')) does not answer; stop it or set DOCKER_HOST"
    return 1
  fi

  local pid launcher=""
  if ! pid=$(de_our_dockerd_pid); then
    local -a flags
    mapfile -t flags < <(de_dockerd_flags)
    de_say "docker engine: starting dockerd${flags[*]:+ ${flags[*]}} (log: $log)"
    rm -f "$pidfile"
    de_rotate_log "$log"
    printf '\n### %s: dockerd %s\n' "$(date -u +%FT%TZ)" "${flags[*]}" >>"$log"
    # setsid: the daemon outlives the shell (and process group) that started it. dockerd writes its
    # own pid file, so the pid is right whether or not setsid had to fork. Descriptors 3-9 are closed
    # so the daemon never keeps a lock its caller held (flock LOCK bin/workcell up).
    setsid dockerd --pidfile "$pidfile" "${flags[@]}" >>"$log" 2>&1 </dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
    launcher=$!
    disown "$launcher" 2>/dev/null || true
  else
    de_say "docker engine: our dockerd (pid $pid) is running, waiting for it to answer"
  fi

  local started=$SECONDS rc=0
  de_wait_for_docker 60 "$launcher" || rc=$?
  case $rc in
    0) de_info "dockerd (pid $(de_our_dockerd_pid || echo '?')) answers after $((SECONDS - started)) s"
       return 0 ;;
    2) de_err "dockerd exited while starting" ;;
    *) de_err "dockerd did not answer within 60 s" ;;
  esac
  de_show_log_tail "$log" 30
  return 1
}

# de_wait_for_docker SECONDS [LAUNCHER_PID] — poll 'docker version'. With a launcher pid (a dockerd
# we just started), give up early (status 2) once neither it nor the pid in our pid file is alive.
de_wait_for_docker() {
  local limit=$1 launcher=${2:-} start=$SECONDS
  while ((SECONDS - start < limit)); do
    de_docker_answers && return 0
    if [[ -n $launcher ]] && ((SECONDS - start >= 5)) &&
      ! kill -0 "$launcher" 2>/dev/null && ! de_our_dockerd_pid >/dev/null; then
      return 2
    fi
    sleep 1
  done
  return 1
}

stop_docker_engine() {
  local pid pidfile
  pidfile=$(de_pidfile)
  if ! pid=$(de_our_dockerd_pid); then
    rm -f "$pidfile"
    de_say "docker engine: not started by Workcell, leaving it alone"
    return 0
  fi
  de_say "docker engine: stopping dockerd (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + 30))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 1; done
  if kill -0 "$pid" 2>/dev/null; then
    de_info "dockerd did not stop within 30 s, killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}
