# shellcheck shell=bash
# Bounded workspaces on a real stack (docs/decisions/0010-bounded-disks.md): an admin's policy with
# workspaceSize 64m gives a task a 64 MB disk; file writes through the Work API end in 507
# workspace_full, the host's disk gives no more than the image, the Work API reports the use, and
# deleting the task deletes the image. Sourced after bin/lib/test.sh; defines functions only.
#
#   wt_disk_checks URL TOKEN
#       URL: the stack's API; TOKEN: an admin's (it makes the policy and owns the task).

WT_DISK_BYTES=$((64 << 20))
WT_DISK_ROOT=${WORKCELL_SANDBOX_DISK_ROOT:-/var/lib/workcell/disks}
WT_DISK_TASK=
WT_DISK_BODY=

wt_disk_checks() {
  local url=$1 token=$2
  WT_DISK_TASK= WT_DISK_BODY=$(mktemp)
  wt_check "disks: a task of a policy with workspaceSize 64m gets a 64 MB disk of its own" wt_disk_task "$url" "$token"
  wt_check "disks: 1.5 MB file writes through the Work API end in 507 workspace_full after 30 or more" \
    wt_disk_fill "$url" "$token"
  wt_check "disks: the host's disk gives the workspace no more than the image (du of disk.img <= 64 MB)" wt_disk_host
  wt_check "disks: GET /sandbox reports a bounded disk of at most 64 MB, nearly full" wt_disk_reported "$url" "$token"
  wt_check "disks: deleting the task deletes its disk" wt_disk_deleted "$url" "$token"
  rm -f "$WT_DISK_BODY"
}

# The disk directory of the task's volume, whatever the stack's instance is called.
wt_disk_dir() {
  local dir
  for dir in "$WT_DISK_ROOT"/*/"workcell-ws-$WT_DISK_TASK"; do
    [[ -d $dir ]] && { printf '%s\n' "$dir"; return 0; }
  done
  return 1
}

wt_disk_task() {
  local url=$1 token=$2 policy created
  policy=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"name\":\"disk-check-$$-$RANDOM\",\"workspaceSize\":\"64m\",\"networkEnabled\":false}" \
    "$url/api/work/admin/policies") || return 1
  policy=$(wt_json id <<<"$policy")
  created=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"message\":\"nothing\",\"provider\":\"ollama\",\"model\":\"qwen3:8b\",\"policyId\":\"$policy\"}" \
    "$url/api/work/tasks") || return 1
  WT_DISK_TASK=$(wt_json task.id <<<"$created")
  [[ -n $WT_DISK_TASK ]] || return 1
  # The first file write starts the sandbox, and so makes its volume and disk.
  curl -sf -X PUT -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d '{"path":"hello.txt","content":"hello\n"}' "$url/api/work/tasks/$WT_DISK_TASK/file" >/dev/null || return 1
  local dir
  dir=$(wt_disk_dir) || return 1
  printf 'disk %s\n' "$dir"
  mountpoint -q "$dir/mnt" && [[ $(stat -c %s "$dir/disk.img") == "$WT_DISK_BYTES" ]]
}

wt_disk_fill() {
  local url=$1 token=$2 i status
  for ((i = 1; i <= 60; i++)); do
    python3 -c 'import json,sys; json.dump({"path": sys.argv[1], "content": "x" * 1500000}, sys.stdout)' \
      "fill-$i.txt" >"$WT_DISK_BODY"
    status=$(curl -s -o "$WT_DISK_BODY.out" -w '%{http_code}' -X PUT -H "Authorization: Bearer $token" \
      -H 'Content-Type: application/json' --data-binary "@$WT_DISK_BODY" "$url/api/work/tasks/$WT_DISK_TASK/file")
    if [[ $status != 200 ]]; then
      printf 'write %d answered %s: %s\n' "$i" "$status" "$(head -c 300 "$WT_DISK_BODY.out")"
      # About 55 MB of the 64 MB are ext4's to give: 36 such files fit, and an unbounded disk takes all 60.
      [[ $status == 507 ]] && grep -q '"code":"workspace_full"' "$WT_DISK_BODY.out" && ((i >= 30))
      status=$?
      rm -f "$WT_DISK_BODY.out"
      return "$status"
    fi
  done
  rm -f "$WT_DISK_BODY.out"
  printf '60 writes of 1.5 MB (90 MB) fitted: the disk is not bounded\n'
  return 1
}

wt_disk_host() {
  local dir allocated
  dir=$(wt_disk_dir) || return 1
  allocated=$(du -B1 "$dir/disk.img" | cut -f1)
  printf 'disk.img allocates %s bytes of the host disk\n' "$allocated"
  ((allocated > 30 * 1024 * 1024 && allocated <= WT_DISK_BYTES))
}

wt_disk_reported() {
  local url=$1 token=$2 view size used
  view=$(curl -sf -H "Authorization: Bearer $token" "$url/api/work/tasks/$WT_DISK_TASK/sandbox") || return 1
  printf '%s\n' "$view"
  size=$(wt_json disk.sizeBytes <<<"$view")
  used=$(wt_json disk.usedBytes <<<"$view")
  [[ $(wt_json disk.bounded <<<"$view") == True && -n $size && -n $used ]] \
    && ((size <= WT_DISK_BYTES && used * 10 >= size * 9))
}

wt_disk_deleted() {
  local url=$1 token=$2 dir
  dir=$(wt_disk_dir) || return 1
  curl -sf -X DELETE -H "Authorization: Bearer $token" "$url/api/work/tasks/$WT_DISK_TASK" >/dev/null || return 1
  [[ ! -e $dir ]] && ! grep -q " $dir/mnt " /proc/self/mountinfo
}
