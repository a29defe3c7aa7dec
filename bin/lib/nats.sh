# shellcheck shell=bash
# nats-server with JetStream, one per purpose (the stack's, and a separate one for tests so a
# running stack never answers a test's request). Sourced; defines functions only.

# ensure_nats NAME PORT MONITOR_PORT [--auth] — --auth locks every service to its own subjects.
ensure_nats() {
  local name=$1 port=$2 monitor=$3 auth=${4:-} dir conf pidfile
  dir=$WC_STATE/$name
  conf=$dir/nats.conf
  pidfile=$WC_RUN/$name.pid
  mkdir -p "$dir/jetstream"
  if wc_pid_alive "$pidfile"; then
    return 0
  fi
  (umask 077 && cat >"$conf") <<CONF
# Written by bin/workcell; edit bin/lib/nats.sh instead.
listen: 127.0.0.1:$port
http: 127.0.0.1:$monitor
server_name: workcell-$name
# A message page (<= 1,000,000 bytes) plus JSON framing must fit in one message.
max_payload: 8MB
jetstream {
  store_dir: "$dir/jetstream"
  max_memory_store: 256MB
  max_file_store: 4GB
}
CONF
  [[ $auth == --auth ]] && wc_nats_authorization >>"$conf"
  setsid nats-server -c "$conf" >>"$WC_LOGS/$name.log" 2>&1 </dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
  echo $! >"$pidfile"
  wc_wait_for 20 "$name" curl -sf "http://127.0.0.1:$monitor/healthz" \
    || { tail -n 20 "$WC_LOGS/$name.log" >&2; wc_die "$name did not start"; }
}

stop_nats() { wc_stop_pid "$1" "$WC_RUN/$1.pid"; }
