# shellcheck shell=bash
# Overload (issue 23): the real stack under 30 concurrent 2 MB writes, 30 concurrent 2 MB reads, 20
# concurrent commands printing 1 MB each and 200 concurrent small reads, through the Work API and the
# Open Terminal API, then one user flooding large writes while another reads small files. Every
# answer must be 2xx or a 429/503 problem, no service may exit, and each service's heap after a GC
# must be back near where it was. The fair user's p99 is printed (no timing assertion).
# Sourced after bin/lib/test.sh; defines functions only.
#
#   wt_overload_checks URL STATE STACK...   STATE: the stack's state folder; STACK: the command that drives it

# Heap after a full GC may grow this much over the measured round. The suite runs twice and the
# heap is compared with its value after the first round: that round fills what a service keeps once
# warm (Jackson's introspection of new types, reflection data, buffer pools: 9-18 MB in
# sandbox-service), while growth from one round to the next is what a leak looks like.
WT_OVERLOAD_HEAP_MARGIN_KB=${WT_OVERLOAD_HEAP_MARGIN_KB:-16384}

wt_overload_checks() {
  local url=$1 state=$2 log=$WC_LOGS/overload.log svc
  shift 2
  local -A pid_before=() restarts_before=() heap_before=()
  : >"$log"
  for svc in "${WC_SERVICES[@]}"; do
    pid_before[$svc]=$(cat "$state/run/$svc.pid" 2>/dev/null)
    restarts_before[$svc]=$(wt_ovl_restarts "$state" "$svc")
  done
  wt_check "overload: a first round (it warms every path): every answer is 2xx or a 429/503 problem" \
    wt_ovl_run "$url" "$state" "$log.first" "$@"
  for svc in "${WC_SERVICES[@]}"; do
    heap_before[$svc]=$(wt_ovl_heap_kb "${pid_before[$svc]}")
  done
  wt_check "overload: every answer to 2 MB writes/reads, 1 MB commands, 200 small reads and a flood is 2xx or a 429/503 problem" \
    wt_ovl_run "$url" "$state" "$log" "$@"
  grep -E '^(setup|30 |20 |200 |fairness|answers|ERROR|FAIR_P99)' "$log" | sed 's/^/      /' >&2 || true
  wt_check "overload: no service exited or was restarted during the suite" wt_ovl_same_processes "$state" pid_before restarts_before
  wt_check "overload: each service's heap after a GC is within $((WT_OVERLOAD_HEAP_MARGIN_KB / 1024)) MB of its value after the first round" \
    wt_ovl_heap_back "$state" heap_before
  grep -E '^heap ' "$WC_LOGS/stack-test.log" | tail -n "${#WC_SERVICES[@]}" | sed 's/^/      /' >&2 || true
  wt_check "overload: once two native-heap trim intervals have passed, no service holds more than $((WT_OVERLOAD_TRIM_MARGIN_KB / 1024)) MB that glibc could give back" \
    wt_ovl_native_retained "$url" "$state"
  grep -E '^(native |mirror)' "$WC_LOGS/stack-test.log" | tail -n "$((${#WC_SERVICES[@]} + 1))" | sed 's/^/      /' >&2 || true
}

# Memory a JVM freed that glibc still holds (what `jcmd PID System.trim_native_heap` gives back) may be
# this much once the launcher's periodic trim (WC_TRIM_NATIVE_HEAP_MS) has run: without it, 17-34 MB
# per JVM stayed in RSS after a soak (bench/soak/results.md).
WT_OVERLOAD_TRIM_MARGIN_KB=${WT_OVERLOAD_TRIM_MARGIN_KB:-8192}

wt_ovl_native_retained() {
  local url=$1 state=$2 svc pid jcmd freed ok=0
  # The suite's work goes on after its last answer: its tasks' sandboxes are stopped and removed, and
  # the mirror copies the last writes and moves the removed volumes' objects aside. What that frees
  # after a periodic trim waits for the next one (sandbox-service held 12.6 MB one interval after the
  # suite once, sandbox-mirror 8.6 MB two intervals after it once): so first the mirror settles, then
  # two intervals pass.
  wt_ovl_mirror_idle "http://127.0.0.1:$((${url##*:} + 6))/mirror/status"
  sleep $((2 * WC_TRIM_NATIVE_HEAP_MS / 1000 + 5))
  for svc in "${WC_SERVICES[@]}"; do
    pid=$(cat "$state/run/$svc.pid" 2>/dev/null)
    jcmd=$(wt_ovl_jcmd "$pid") || { echo "native $svc: no jcmd for pid ${pid:-?}"; ok=1; continue; }
    # "Trim native heap: RSS+Swap: 192M->159M (-33808K)": the change in parentheses (B, K, M or G).
    freed=$("$jcmd" "$pid" System.trim_native_heap 2>/dev/null | awk 'match($0, /\([-+]?[0-9]+[BKMG]\)/) {
      v = substr($0, RSTART + 1, RLENGTH - 3); u = substr($0, RSTART + RLENGTH - 2, 1)
      k = (u == "B") ? v / 1024 : (u == "M") ? v * 1024 : (u == "G") ? v * 1048576 : v
      printf "%d\n", (k < 0) ? -k : 0 }')
    echo "native $svc: ${freed:-?} KB given back by a trim"
    [[ -n $freed ]] && ((freed <= WT_OVERLOAD_TRIM_MARGIN_KB)) || ok=1
  done
  return "$ok"
}

# wt_ovl_mirror_idle STATUS_URL — waits (at most 3 minutes) until the mirror has nothing pending; says how long it took.
wt_ovl_mirror_idle() {
  local status=$1 start=$SECONDS body
  while ((SECONDS - start < 180)); do
    body=$(curl -sf --max-time 5 "$status") || { echo "mirror: no status (${status})"; return 0; }
    if [[ $body == *'"idle":true'* || $body == *'"enabled":false'* ]]; then
      echo "mirror idle after $((SECONDS - start)) s"
      return 0
    fi
    sleep 2
  done
  echo "mirror still busy after $((SECONDS - start)) s"
}

wt_ovl_restarts() {
  local count=0
  [[ -s $1/run/$2.restarts ]] && read -r count _ <"$1/run/$2.restarts"
  printf '%s\n' "${count:-0}"
}

# wt_ovl_heap_kb PID — heap used (KB) right after a full GC, every generation together; empty when unknown.
wt_ovl_heap_kb() {
  local pid=$1 jcmd
  jcmd=$(wt_ovl_jcmd "$pid") || return 0
  "$jcmd" "$pid" GC.run >/dev/null 2>&1 || return 0
  "$jcmd" "$pid" GC.heap_info 2>/dev/null | awk '
    /^ *(DefNew|Tenured|def new generation|tenured generation|garbage-first heap|PSYoungGen|ParOldGen)/ {
      for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K.*/, "", v); sum += v } }
    END { if (sum > 0) print sum }'
}

# The jcmd of the JDK that runs PID (the launcher's JAVA_HOME, else the process's own executable).
wt_ovl_jcmd() {
  local pid=$1 exe
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 1
  exe=$(readlink -f "/proc/$pid/exe" 2>/dev/null) || return 1
  [[ -x ${exe%/java}/jcmd ]] && { printf '%s\n' "${exe%/java}/jcmd"; return 0; }
  [[ -x ${JAVA_HOME:-}/bin/jcmd ]] && { printf '%s\n' "$JAVA_HOME/bin/jcmd"; return 0; }
  return 1
}

wt_ovl_run() {
  local url=$1 state=$2 log=$3 user tokens=() rc=0
  shift 3
  for user in ovl-a ovl-b ovl-fair; do
    tokens+=(--token "$user=$("$@" token --user "$user" --role admin 2>/dev/null | tail -n 1)")
  done
  local base=${url##*:}
  python3 "$ROOT/bin/lib/e2e/overload.py" --url "$url" --terminal-key "$(cat "$state/secrets/terminal-server-key")" \
    "${tokens[@]}" --fair ovl-fair --flood-seconds "${WT_OVERLOAD_FLOOD_SECONDS:-15}" \
    --ready-url "$url/q/health/ready" --ready-url "http://127.0.0.1:$((base + 3))/q/health/ready" >"$log" 2>&1 || rc=$?
  cat "$log"
  return "$rc"
}

wt_ovl_same_processes() {
  local state=$1 svc ok=0 now
  local -n pids=$2 restarts=$3
  for svc in "${WC_SERVICES[@]}"; do
    now=$(cat "$state/run/$svc.pid" 2>/dev/null)
    echo "$svc: pid ${pids[$svc]} → $now, restarts ${restarts[$svc]} → $(wt_ovl_restarts "$state" "$svc")"
    [[ $now == "${pids[$svc]}" && $(wt_ovl_restarts "$state" "$svc") == "${restarts[$svc]}" ]] || ok=1
  done
  return "$ok"
}

wt_ovl_heap_back() {
  local state=$1 svc ok=0 after
  local -n before=$2
  for svc in "${WC_SERVICES[@]}"; do
    after=$(wt_ovl_heap_kb "$(cat "$state/run/$svc.pid" 2>/dev/null)")
    echo "heap $svc: ${before[$svc]:-?} KB before, ${after:-?} KB after (after a full GC)"
    # An unreadable heap fails the check rather than passing it unmeasured.
    [[ -n ${before[$svc]} && -n $after ]] && ((after <= before[$svc] + WT_OVERLOAD_HEAP_MARGIN_KB)) || ok=1
  done
  return "$ok"
}
