#!/bin/bash
# First start of docker/compose.yaml: the stack's secrets are made once into /state (a volume only
# this job mounts) and each service's share is written, on every start, into a volume that only that
# service mounts, owned by the user it runs as, mode 0400.
set -euo pipefail
umask 077

STATE=/state
OUT=/secrets
SERVICE_UID=10001   # workcell/java-runtime's user
MIRROR_UID=${WORKCELL_SANDBOX_UID:-1000} # sandbox-mirror runs as the sandboxes' user: it reads their files
NATS_UID=${WORKCELL_NATS_UID:-10002}
PG_UID=${WORKCELL_PG_UID:-999}

# The launcher's helper, with the same name, so bin/lib/nats-users.sh (and the generated
# nats-permissions.sh beside it) work unchanged.
wc_secret() {
  local file=$STATE/$1
  [[ -s $file ]] || head -c 32 /dev/urandom | base64 | tr -d '/+=\n' >"$file"
  cat "$file"
}
# shellcheck source=bin/lib/nats-users.sh
source /opt/workcell/nats-users.sh

if [[ ! -s $STATE/jwt-private.pem ]]; then
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$STATE/jwt-private.pem.tmp" 2>/dev/null
  mv "$STATE/jwt-private.pem.tmp" "$STATE/jwt-private.pem"
fi
openssl pkey -in "$STATE/jwt-private.pem" -pubout -out "$STATE/jwt-public.pem" 2>/dev/null

# put DIR UID NAME — stdin becomes DIR/NAME, readable by UID only.
put() {
  local dir=$OUT/$1 uid=$2 name=$3
  cat >"$dir/$name.tmp"
  chown "$uid:$uid" "$dir/$name.tmp"
  chmod 0400 "$dir/$name.tmp"
  mv -f "$dir/$name.tmp" "$dir/$name"
}

# service_env DIR NATS_USER [KEY=VALUE...] — a service's service.env (read by run-service).
service_env() {
  local dir=$1 user=$2
  shift 2
  {
    printf '%s\n' "WORKCELL_NATS_USER=$user" "WORKCELL_NATS_PASSWORD=$(wc_secret "nats-$user")"
    wc_nats_manages_streams "$user" || printf '%s\n' "WORKCELL_NATS_PROVISION_STREAMS=false"
    printf '%s\n' "$@"
  } | put "$dir" "${OWNER_UID:-$SERVICE_UID}" service.env
}

F=/run/workcell/secrets # where every service mounts its own volume
service_env task task "QUARKUS_DATASOURCE_PASSWORD=$(wc_secret pg-workcell_task)" "WORKCELL_PROVIDER_KEY_FILE=$F/provider-key"
wc_secret provider-key | put task "$SERVICE_UID" provider-key
service_env gateway gateway "MP_JWT_VERIFY_PUBLICKEY_LOCATION=$F/jwt-public.pem" "WORKCELL_TERMINAL_SERVER_KEY_FILE=$F/terminal-server-key" \
  "WORKCELL_TERMINAL_SERVICE_URL=http://terminal-service:8080"
put gateway "$SERVICE_UID" jwt-public.pem <"$STATE/jwt-public.pem"
wc_secret terminal-server-key | put gateway "$SERVICE_UID" terminal-server-key
service_env agent-runner agent-runner
service_env sandbox sandbox
# The preview links' key: preview-proxy issues and checks them; no other service gets it.
service_env preview-proxy preview-proxy "WORKCELL_PREVIEW_KEY_FILE=$F/preview-key"
wc_secret preview-key | put preview-proxy "$SERVICE_UID" preview-key
# terminal-service checks the Open Terminal key itself: a terminal WebSocket's first message carries it.
service_env terminal terminal "WORKCELL_TERMINAL_SERVER_KEY_FILE=$F/terminal-server-key"
wc_secret terminal-server-key | put terminal "$SERVICE_UID" terminal-server-key
# The S3 identity: the S3 server and sandbox-mirror alone get it (decision 0021); sandbox-mirror's
# spool (a file being uploaded) is a volume of its own, writable by its user only.
OWNER_UID=$MIRROR_UID service_env sandbox-mirror sandbox-mirror \
  "WORKCELL_MIRROR_S3_ACCESS_KEY_FILE=$F/s3-access-key" "WORKCELL_MIRROR_S3_SECRET_KEY_FILE=$F/s3-secret-key"
for name in s3-access-key s3-secret-key; do
  wc_secret "$name" | put sandbox-mirror "$MIRROR_UID" "$name"
  wc_secret "$name" | put s3 "$SERVICE_UID" "$name"
done
install -d -o "$MIRROR_UID" -g "$MIRROR_UID" -m 0700 /spool/sandbox-mirror
# Only the operator's CLI can sign tokens; `docker-compose run --rm cli token ...` uses it.
service_env cli cli "WORKCELL_CLI_SIGNING_KEY=$F/jwt-private.pem"
put cli "$SERVICE_UID" jwt-private.pem <"$STATE/jwt-private.pem"
# The admin can read the terminal-server key for OpenWebUI: docker-compose run --rm --entrypoint cat cli ...
wc_secret terminal-server-key | put cli "$SERVICE_UID" terminal-server-key

{
  cat <<CONF
# Written by the compose init job (docker/compose/compose-init/init.sh) at every start.
listen: 0.0.0.0:4222
http: 0.0.0.0:8222
server_name: workcell-compose
max_payload: 8MB
jetstream {
  store_dir: "/data"
  max_memory_store: 256MB
  max_file_store: 4GB
}
CONF
  wc_nats_authorization
} | put nats "$NATS_UID" nats.conf

wc_secret pg-postgres | put postgres "$PG_UID" password
wc_secret pg-workcell_task | put postgres "$PG_UID" task-password
echo "secrets ready"
