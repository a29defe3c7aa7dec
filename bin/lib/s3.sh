# shellcheck shell=bash
# The stack's S3 server: s3proxy (a real S3 API) with a filesystem backend under the state folder, on
# loopback, with a bucket and credentials of its own (secrets/s3-access-key, secrets/s3-secret-key).
# Only sandbox-mirror receives the credentials (docs/decisions/0021-mirror-reads-a-read-only-disk-root.md).
# Runs under the services' supervisor. Sourced; defines functions only.
#
# Public:   ensure_s3, stop_s3, s3_ready, WC_S3_URL, WC_S3_BUCKET
# Reads:    WORKCELL_S3_PORT (19480), WORKCELL_S3_BUCKET (workcell-mirror)

# Beside the port base like the services (8480 → 19480), so a test stack (9480) has its own.
WC_S3_PORT=${WORKCELL_S3_PORT:-$((${WORKCELL_PORT_BASE:-8480} + 11000))}
WC_S3_URL=http://127.0.0.1:$WC_S3_PORT
WC_S3_BUCKET=${WORKCELL_S3_BUCKET:-workcell-mirror}
WC_S3_VERSION=4.1.0

s3_jar() { printf '%s\n' "$WC_STATE/s3/s3proxy-$WC_S3_VERSION.jar"; }

# A signed request (curl's SigV4) with the stack's credentials: s3_curl METHOD PATH [curl args...].
s3_curl() {
  local method=$1 path=$2
  shift 2
  curl -s --max-time 5 -X "$method" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" --aws-sigv4 "aws:amz:us-east-1:s3" \
    --user "$(wc_secret s3-access-key):$(wc_secret s3-secret-key)" "$@" "$WC_S3_URL$path"
}

# Ready when the bucket answers a signed HEAD.
s3_ready() { [[ $(s3_curl HEAD "/$WC_S3_BUCKET" -o /dev/null -w '%{http_code}' -I) == 200 ]]; }

# The server's jar (all dependencies in one) through Maven, once.
s3_fetch_jar() {
  [[ -s $(s3_jar) ]] && return 0
  wc_info "fetching s3proxy $WC_S3_VERSION with Maven"
  (cd "$ROOT" && ./mvnw -B -q dependency:copy -Dartifact="org.gaul:s3proxy:$WC_S3_VERSION:jar:jar-with-dependencies" \
    -DoutputDirectory="$WC_STATE/s3" -Dmdep.stripClassifier=true) >>"$WC_LOGS/s3.log" 2>&1 \
    || { tail -n 20 "$WC_LOGS/s3.log" >&2; return 1; }
  [[ -s $(s3_jar) ]]
}

ensure_s3() {
  local dir=$WC_STATE/s3 conf
  conf=$dir/s3proxy.conf
  mkdir -p "$dir/data"
  chmod 700 "$dir"
  if ! wc_pid_alive "$WC_RUN/s3.supervisor.pid"; then
    s3_fetch_jar || wc_die "could not fetch s3proxy (log: $WC_LOGS/s3.log)"
    if curl -s -o /dev/null "$WC_S3_URL/"; then
      wc_die "port $WC_S3_PORT (S3) is taken by a process bin/workcell did not start"
    fi
    (umask 077 && cat >"$conf") <<CONF
# Written by bin/workcell; edit bin/lib/s3.sh instead.
s3proxy.endpoint=$WC_S3_URL
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$(wc_secret s3-access-key)
s3proxy.credential=$(wc_secret s3-secret-key)
jclouds.provider=filesystem-nio2
jclouds.filesystem.basedir=$dir/data
CONF
    setsid bash "$ROOT/bin/lib/supervise.sh" s3 "$WC_RUN" "$WC_LOGS" \
      env -i PATH=/usr/bin:/bin HOME="$dir" LANG=C.UTF-8 MALLOC_ARENA_MAX="$WC_MALLOC_ARENA_MAX" \
      "$JAVA_HOME/bin/java" -XX:+UseSerialGC -Xms16m -Xmx96m -XX:TieredStopAtLevel=1 -jar "$(s3_jar)" --properties "$conf" \
      >/dev/null 2>&1 </dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
    echo $! >"$WC_RUN/s3.supervisor.pid"
  fi
  wc_wait_for 60 "s3proxy" curl -s -o /dev/null "$WC_S3_URL/" \
    || { tail -n 20 "$WC_LOGS/s3.log" >&2; wc_die "s3proxy did not start"; }
  # The bucket: created once (PUT on an existing bucket of the same owner is harmless).
  s3_ready || s3_curl PUT "/$WC_S3_BUCKET" -o /dev/null || true
  s3_ready || wc_die "bucket $WC_S3_BUCKET could not be created (log: $WC_LOGS/s3.log)"
}

stop_s3() { wc_stop_service s3; }
