#!/bin/bash
# Run once by the PostgreSQL image at its first start (the public image and docker/compose/postgres
# alike): task-service's own role and database, the role's password from the init job's volume.
set -euo pipefail
psql -v ON_ERROR_STOP=1 -q --username "${POSTGRES_USER:-postgres}" --dbname postgres \
  -v pw="$(cat /run/workcell/secrets/task-password)" <<'SQL'
create role workcell_task login password :'pw';
create database workcell_task owner workcell_task;
SQL
