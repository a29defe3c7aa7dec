# shellcheck shell=bash
# A PostgreSQL cluster of Workcell's own, run as the non-root 'postgres' user on loopback.
# Sourced; defines functions only.

wc_pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# The cluster lives under the state folder when the postgres user can reach it; a state folder
# under a private home (/root) is not traversable, so then it lives under /var/lib/workcell.
wc_pg_data() {
  local preferred=$WC_STATE/postgres
  if su postgres -s /bin/sh -c "test -x '$WC_STATE'" 2>/dev/null; then
    printf '%s\n' "$preferred"
  else
    printf '/var/lib/workcell/postgres-%s\n' "$(printf '%s' "$WC_STATE" | sha256sum | cut -c1-12)"
  fi
}

wc_pg_ready() { "$(wc_pg_bin)/pg_isready" -q -h 127.0.0.1 -p "$WC_PG_PORT"; }

wc_pg_psql() { su postgres -s /bin/sh -c "$(wc_pg_bin)/psql -v ON_ERROR_STOP=1 -qAt -h '$1' -p $WC_PG_PORT -d postgres -c \"$2\""; }

ensure_postgres() {
  local bin data log
  bin=$(wc_pg_bin)
  data=$(wc_pg_data)
  log=$WC_LOGS/postgres.log
  [[ -n $bin ]] || wc_die "PostgreSQL server binaries not found"
  if [[ ! -s $data/PG_VERSION ]]; then
    wc_info "initialising a PostgreSQL cluster in $data"
    install -d -m 700 -o postgres -g postgres "$data"
    su postgres -s /bin/sh -c "$bin/initdb -D '$data' -U postgres --auth-local=peer --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8" >>"$log" 2>&1 \
      || { tail -n 20 "$log" >&2; wc_die "initdb failed"; }
  fi
  if ! su postgres -s /bin/sh -c "$bin/pg_ctl -D '$data' status" >/dev/null 2>&1; then
    touch "$log" && chown postgres "$log"
    # Group commit: with 5+ other transactions open, a commit waits up to 1 ms before its WAL flush
    # so concurrent commits share one fsync. It only delays the flush; nothing acknowledged can be
    # lost (synchronous_commit and fsync stay on).
    su postgres -s /bin/sh -c "$bin/pg_ctl -D '$data' -l '$log' -w -t 60 -o \"-p $WC_PG_PORT -k '$data' -c listen_addresses=127.0.0.1 -c max_connections=200 -c commit_delay=1000 -c commit_siblings=5\" start" >/dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- \
      || { tail -n 20 "$log" >&2; wc_die "PostgreSQL did not start"; }
    printf '%s\n' "$data" >"$WC_RUN/postgres.data"
  fi
  wc_wait_for 30 PostgreSQL wc_pg_ready
  wc_pg_database workcell_task workcell_task workcell_task_test
}

# wc_pg_database ROLE DB... — the role (password from the state folder) and databases it owns.
wc_pg_database() {
  local role=$1 data password db
  shift
  data=$(wc_pg_data)
  password=$(wc_secret "pg-$role")
  if [[ -z $(wc_pg_psql "$data" "select 1 from pg_roles where rolname = '$role'") ]]; then
    wc_pg_psql "$data" "create role $role login password '$password'"
  else
    wc_pg_psql "$data" "alter role $role password '$password'"
  fi
  for db in "$@"; do
    if [[ -z $(wc_pg_psql "$data" "select 1 from pg_database where datname = '$db'") ]]; then
      wc_pg_psql "$data" "create database $db owner $role"
    fi
  done
}

stop_postgres() {
  local data
  [[ -s $WC_RUN/postgres.data ]] || return 0
  data=$(<"$WC_RUN/postgres.data")
  su postgres -s /bin/sh -c "$(wc_pg_bin)/pg_ctl -D '$data' -m fast -w stop" >/dev/null 2>&1 || true
  rm -f "$WC_RUN/postgres.data"
  wc_info "stopped PostgreSQL"
}
