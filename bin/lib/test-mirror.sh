# shellcheck shell=bash
# The mirror on a real stack (docs/mirror.md, decision 0021): the stack's S3 server is up, a file
# written through the Work API and one written in an Open Terminal home reach the bucket, from
# inside a sandbox the S3 endpoint cannot be reached and its credentials are nowhere, and deleted
# files (text, binary, 20 MB) come back byte for byte through bin/workcell restore.
# Sourced after bin/lib/test.sh; defines functions only.
#
#   wt_mirror_checks URL TOKEN KEY STATE STACK...
#       URL: the stack's API; TOKEN: an admin's; KEY: the terminal-server key; STATE: its state folder.

wt_mirror_checks() {
  local url=$1 token=$2 key=$3 state=$4
  shift 4
  local s3=http://127.0.0.1:$((${WORKCELL_TEST_PORT_BASE:-9480} + 11000)) user="mirror-check-$$-$RANDOM"
  wt_check "mirror: status shows the stack's S3 server ready" bash -c '"$@" status | grep -qE "^s3 +ready"' _ "$@"
  wt_check "mirror: a file written through the Work API reaches tasks/<task id>/ in the bucket" \
    wt_mirror_task_file "$url" "$token" "$state" "$s3"
  wt_check "mirror: a file written in an Open Terminal home reaches homes/<home id>/ in the bucket" \
    wt_mirror_home_file "$url" "$key" "$state" "$s3" "$user"
  wt_check "mirror: from a sandbox the S3 endpoint is unreachable (open from the host) and its credentials appear nowhere" \
    wt_mirror_sandbox_isolated "$url" "$key" "$state" "$s3" "$user"
  wt_check "mirror: a deleted home file moves under .deleted/<date>/ and bin/workcell restore brings it back" \
    wt_mirror_restore "$url" "$key" "$state" "$s3" "$user" "$@"
  wt_check "mirror: a deleted binary file and a 20 MB file in a home come back identical (sha256, mode) through bin/workcell restore" \
    wt_mirror_restore_large_home "$url" "$key" "$state" "$s3" "$user" "$@"
  wt_check "mirror: a deleted binary file and a 20 MB file in a workspace come back identical (sha256) through bin/workcell restore" \
    wt_mirror_restore_large_task "$url" "$token" "$state" "$s3" "$@"
  wt_check "mirror: bin/workcell mirror reports objects" \
    bash -c '"$@" mirror | tee -a /dev/stderr | grep -qE "^objects +[1-9]"' _ "$@"
}

# wt_mirror_object STATE S3 KEY — the object's body (empty and failing when absent).
wt_mirror_object() {
  curl -sf --max-time 5 -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" --aws-sigv4 "aws:amz:us-east-1:s3" \
    --user "$(cat "$1/secrets/s3-access-key"):$(cat "$1/secrets/s3-secret-key")" "$2/workcell-mirror/$3"
}

# wt_mirror_await STATE S3 KEY CONTENT — up to 15 s for the object to hold CONTENT.
wt_mirror_await() {
  local i start=$SECONDS
  for ((i = 0; i < 75; i++)); do
    if [[ $(wt_mirror_object "$1" "$2" "$3" 2>/dev/null) == "$4" ]]; then
      printf '      %s in the bucket after %d s\n' "$3" "$((SECONDS - start))" >&2
      return 0
    fi
    sleep 0.2
  done
  printf '      %s not in the bucket after 15 s\n' "$3" >&2
  return 1
}

wt_mirror_task_file() {
  local url=$1 token=$2 state=$3 s3=$4 created task
  created=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"message":"nothing","provider":"ollama","model":"qwen3:8b"}' "$url/api/work/tasks") || return 1
  task=$(wt_json task.id <<<"$created")
  curl -sf -X PUT -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"path":"src/mirrored.txt","content":"mirrored from a task\n","createParents":true}' \
    "$url/api/work/tasks/$task/file" >/dev/null || return 1
  wt_mirror_await "$state" "$s3" "tasks/$task/src/mirrored.txt" "mirrored from a task"
}

wt_mirror_home_file() {
  local url=$1 key=$2 state=$3 s3=$4 user=$5 home
  curl -sf -X POST -H "Authorization: Bearer $key" -H "X-User-Id: $user" -H 'Content-Type: application/json' \
    -d '{"path":"notes/home.txt","content":"mirrored from a home"}' "$url/api/open-terminal/files/write" >/dev/null || return 1
  home=$(printf '%s' "$user" | sha256sum | cut -d' ' -f1)
  wt_mirror_await "$state" "$s3" "homes/$home/notes/home.txt" "mirrored from a home"
}

wt_mirror_restore() {
  local url=$1 key=$2 state=$3 s3=$4 user=$5 home day
  shift 5
  home=$(printf '%s' "$user" | sha256sum | cut -d' ' -f1)
  day=$(date -u +%F)
  curl -sf -X DELETE -H "Authorization: Bearer $key" -H "X-User-Id: $user" \
    "$url/api/open-terminal/files/delete?path=notes/home.txt" >/dev/null || return 1
  wt_mirror_await "$state" "$s3" ".deleted/$day/homes/$home/notes/home.txt" "mirrored from a home" || return 1
  "$@" restore --home "$user" --deleted-on "$day" >&2 || return 1
  curl -sf -H "Authorization: Bearer $key" -H "X-User-Id: $user" "$url/api/open-terminal/files/read?path=notes/home.txt" |
    grep -q "mirrored from a home"
}

# Probes the S3 port on the sandbox's loopback, the host's addresses and the sandbox network's
# gateway; greps the sandbox's environment and writable folders for the access and secret keys.
wt_mirror_sandbox_isolated() {
  local url=$1 key=$2 state=$3 s3=$4 user=$5 port=${4##*:} targets=() script out ip
  curl -s -o /dev/null "$s3/" || { echo "control: the S3 port is not open from the host"; return 1; }
  targets=("127.0.0.1:$port")
  for ip in $(hostname -I); do targets+=("$ip:$port"); done
  for ip in $(docker network inspect -f '{{range .IPAM.Config}}{{.Gateway}}{{end}}' $(docker network ls -q --filter name=wcsbx) 2>/dev/null); do
    targets+=("$ip:$port")
  done
  script='for t in '"${targets[*]}"'; do if timeout 2 bash -c "exec 3<>/dev/tcp/${t%:*}/${t#*:}" 2>/dev/null; then echo "open $t"; else echo "closed $t"; fi; done
for s in '"$(cat "$state/secrets/s3-access-key") $(cat "$state/secrets/s3-secret-key")"'; do
  env | grep -qF -- "$s" && echo "secret in env"
  grep -rlsF -- "$s" /home /workspace /etc /tmp /run /opt /var /usr/local 2>/dev/null | sed "s/^/secret in /"
done; echo done'
  out=$(wt_mirror_exec "$url" "$key" "$user" "$script") || return 1
  printf '      from a sandbox: %s\n' "$(tr '\n' ' ' <<<"$out")" >&2
  grep -qx done <<<"$out" || return 1
  ! grep -q '^open \|^secret in' <<<"$out"
}

# wt_mirror_exec URL KEY USER SCRIPT — runs SCRIPT in USER's home sandbox (up to 60 s), prints its output.
wt_mirror_exec() {
  local body
  body=$(python3 -c 'import json, sys; print(json.dumps({"command": sys.argv[1]}))' "$4")
  curl -sf --max-time 120 -X POST -H "Authorization: Bearer $2" -H "X-User-Id: $3" -H 'Content-Type: application/json' \
    --data-binary "$body" "$1/api/open-terminal/execute?wait=60" |
    python3 -c 'import json, sys; print("".join(e.get("data", "") for e in json.load(sys.stdin).get("output", [])).replace("\r", ""))'
}

# wt_mirror_await_sha STATE S3 KEY SHA256 — up to 60 s for the object to exist with that content.
wt_mirror_await_sha() {
  local i start=$SECONDS
  for ((i = 0; i < 120; i++)); do
    if [[ $(wt_mirror_object "$1" "$2" "$3" 2>/dev/null | sha256sum | cut -d' ' -f1) == "$4" ]]; then
      printf '      %s in the bucket after %d s\n' "$3" "$((SECONDS - start))" >&2
      return 0
    fi
    sleep 0.5
  done
  printf '      %s not in the bucket (sha256 %s) after 60 s\n' "$3" "$4" >&2
  return 1
}

# Writes a binary file (mode 0750) and a 20 MB file in a home, deletes them once mirrored, restores
# them from .deleted/<today>/ and compares sha256 and mode; no part file may remain.
wt_mirror_restore_large_home() {
  local url=$1 key=$2 state=$3 s3=$4 user=$5 home day before after f
  shift 5
  home=$(printf '%s' "$user" | sha256sum | cut -d' ' -f1)
  day=$(date -u +%F)
  before=$(wt_mirror_exec "$url" "$key" "$user" 'cd /home/user && mkdir -p big && head -c 20000000 /dev/urandom > big/20mb.bin &&
printf "\0\377\376binary\r\n\200" > big/small.bin && head -c 3000 /dev/urandom >> big/small.bin && chmod 750 big/small.bin &&
cd big && sha256sum 20mb.bin small.bin && stat -c "%a %n" small.bin') || return 1
  printf '      before: %s\n' "$(tr '\n' ' ' <<<"$before")" >&2
  for f in 20mb.bin small.bin; do
    wt_mirror_await_sha "$state" "$s3" "homes/$home/big/$f" "$(awk -v f="$f" 'length($1) == 64 && $2 == f {print $1}' <<<"$before")" || return 1
  done
  wt_mirror_exec "$url" "$key" "$user" 'rm -r /home/user/big' >/dev/null || return 1
  for f in 20mb.bin small.bin; do
    wt_mirror_await_sha "$state" "$s3" ".deleted/$day/homes/$home/big/$f" "$(awk -v f="$f" 'length($1) == 64 && $2 == f {print $1}' <<<"$before")" || return 1
  done
  "$@" restore --home "$user" --deleted-on "$day" --path big/ >&2 || return 1
  after=$(wt_mirror_exec "$url" "$key" "$user" 'cd /home/user/big && sha256sum 20mb.bin small.bin && stat -c "%a %n" small.bin && ls -1A') || return 1
  printf '      after: %s\n' "$(tr '\n' ' ' <<<"$after")" >&2
  [[ $after == "$before"$'\n'"20mb.bin"$'\n'"small.bin" ]]
}

# The same in a task's workspace, whose files the check writes and deletes on the host's disk (the
# Work API has no command): a sandbox's writes as far as the mirror can tell.
wt_mirror_restore_large_task() {
  local url=$1 token=$2 state=$3 s3=$4 created task day data f sum
  shift 4
  created=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"message":"nothing","provider":"ollama","model":"qwen3:8b"}' "$url/api/work/tasks") || return 1
  task=$(wt_json task.id <<<"$created")
  curl -sf -X PUT -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"path":"keep.txt","content":"the sandbox exists\n","createParents":true}' "$url/api/work/tasks/$task/file" >/dev/null || return 1
  data=$(sd_root)/stack-${WORKCELL_TEST_PORT_BASE:-9480}/workcell-ws-$task/mnt/data
  [[ -d $data ]] || { echo "no workspace disk at $data"; return 1; }
  mkdir -p "$data/big"
  head -c 20000000 /dev/urandom >"$data/big/20mb.bin"
  head -c 4096 /dev/urandom >"$data/big/small.bin"
  declare -A sums
  for f in 20mb.bin small.bin; do
    sums[$f]=$(sha256sum <"$data/big/$f" | cut -d' ' -f1)
    wt_mirror_await_sha "$state" "$s3" "tasks/$task/big/$f" "${sums[$f]}" || return 1
  done
  rm -r "$data/big"
  day=$(date -u +%F)
  for f in 20mb.bin small.bin; do
    wt_mirror_await_sha "$state" "$s3" ".deleted/$day/tasks/$task/big/$f" "${sums[$f]}" || return 1
  done
  "$@" restore --task "$task" --deleted-on "$day" --path big/ >&2 || return 1
  for f in 20mb.bin small.bin; do
    sum=$(sha256sum <"$data/big/$f" | cut -d' ' -f1)
    printf '      %s restored: %s (was %s)\n' "$f" "$sum" "${sums[$f]}" >&2
    [[ $sum == "${sums[$f]}" ]] || return 1
  done
  [[ $(ls -A "$data/big" | tr '\n' ' ') == "20mb.bin small.bin " ]]
}
