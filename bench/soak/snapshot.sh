#!/usr/bin/env bash
# snapshot.sh RUN_DIR OUT_DIR LABEL [SERVICE...] — what each JVM holds, for comparing a soak's warm
# and end states (issue 23): RSS and its parts (/proc smaps_rollup), the heap (GC.heap_info), native
# memory by category (VM.native_memory summary: needs -XX:NativeMemoryTracking=summary in
# WORKCELL_JAVA_OPTS, else skipped) and the 25 largest classes of the live heap (GC.class_histogram,
# which runs a full GC first; HISTOGRAM=0 skips it). One file per service: OUT_DIR/LABEL-SERVICE.txt.
set -euo pipefail
run=$1 out=$2 label=$3
shift 3
services=("$@")
((${#services[@]})) || services=(gateway-service agent-runner-service sandbox-service task-service)
jcmd=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jcmd
mkdir -p "$out"
for svc in "${services[@]}"; do
  pid=$(cat "$run/$svc.pid" 2>/dev/null) || continue
  kill -0 "$pid" 2>/dev/null || continue
  {
    echo "## $svc pid $pid $(date -u +%FT%TZ)"
    grep -E '^(Rss|Pss_Anon|Pss_File|Anonymous)' "/proc/$pid/smaps_rollup" || true
    grep -E '^Threads' "/proc/$pid/status" || true
    echo "## heap (before the histogram's GC)"
    "$jcmd" "$pid" GC.heap_info | sed 1d
    echo "## native memory"
    "$jcmd" "$pid" VM.native_memory summary 2>/dev/null | sed -n '/^Total/,/^$/p;/^-/,/^$/p' | grep -E 'Total|^-|committed' | head -60 || true
    # The histogram's full GC may shrink the heap: HISTOGRAM=0 leaves it out mid-run.
    if [[ ${HISTOGRAM:-1} == 1 ]]; then
      echo "## histogram"
      "$jcmd" "$pid" GC.class_histogram | sed -n '1,28p'
      echo "## heap (after the histogram's GC)"
      "$jcmd" "$pid" GC.heap_info | sed 1d
    fi
  } >"$out/$label-$svc.txt" 2>&1
done
