#!/bin/bash
# The public postgres image's first-start behaviour, reduced to what docker/compose.yaml uses.
set -euo pipefail
if [[ ! -s $PGDATA/PG_VERSION ]]; then
  initdb -D "$PGDATA" -U "${POSTGRES_USER:-postgres}" --pwfile="${POSTGRES_PASSWORD_FILE:?}" \
    -E UTF8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  printf "listen_addresses = '*'\nunix_socket_directories = '/tmp'\n" >>"$PGDATA/postgresql.conf"
  echo 'host all all all scram-sha-256' >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  for f in /docker-entrypoint-initdb.d/*.sh; do
    [[ -e $f ]] && PGHOST=/tmp bash "$f"
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "database initialised"
fi
exec postgres -D "$PGDATA"
