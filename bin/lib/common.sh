# shellcheck shell=bash
# Shared helpers of bin/workcell: paths, progress output, pid files. Sourced; defines functions only.

WC_STATE=${WORKCELL_STATE:-$ROOT/.workcell}
WC_RUN=$WC_STATE/run
WC_LOGS=$WC_STATE/logs
WC_SECRETS=$WC_STATE/secrets
WC_KEYS=$WC_STATE/keys

# Fixed loopback ports of the local stack (override with the variables).
WC_PG_PORT=${WORKCELL_PG_PORT:-15432}
WC_NATS_PORT=${WORKCELL_NATS_PORT:-14222}
WC_NATS_MONITOR_PORT=${WORKCELL_NATS_MONITOR_PORT:-18222}
WC_TEST_NATS_PORT=${WORKCELL_TEST_NATS_PORT:-14223}
WC_TEST_NATS_MONITOR_PORT=${WORKCELL_TEST_NATS_MONITOR_PORT:-18223}

wc_say() { printf '==> %s\n' "$*" >&2; }
wc_info() { printf '    %s\n' "$*" >&2; }
wc_err() { printf 'ERROR: %s\n' "$*" >&2; }
wc_die() { wc_err "$*"; exit 1; }

wc_dirs() { mkdir -p "$WC_RUN" "$WC_LOGS" "$WC_SECRETS" "$WC_KEYS"; chmod 700 "$WC_SECRETS" "$WC_KEYS"; }

# wc_pid_alive PIDFILE — true when the pid file names a live process.
wc_pid_alive() {
  local pid
  [[ -s $1 ]] || return 1
  pid=$(<"$1")
  [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null
}

# wc_stop_pid NAME PIDFILE — TERM, wait up to 15 s, then KILL; removes the pid file.
wc_stop_pid() {
  local name=$1 pidfile=$2 pid i
  if ! wc_pid_alive "$pidfile"; then
    rm -f "$pidfile"
    return 0
  fi
  pid=$(<"$pidfile")
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 150; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    wc_info "$name did not stop in 15 s; killing"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
  wc_info "stopped $name (pid $pid)"
}

# wc_secret NAME — a random secret kept under the state folder (created once, mode 600).
wc_secret() {
  local file=$WC_SECRETS/$1
  if [[ ! -s $file ]]; then
    (umask 077 && head -c 32 /dev/urandom | base64 | tr -d '/+=\n' >"$file")
  fi
  cat "$file"
}

# wc_wait_for SECONDS DESCRIPTION CMD... — poll CMD every 0.2 s until it succeeds.
wc_wait_for() {
  local limit=$1 what=$2 start=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS - start >= limit)); then
      wc_err "$what not ready after ${limit} s"
      return 1
    fi
    sleep 0.2
  done
}
