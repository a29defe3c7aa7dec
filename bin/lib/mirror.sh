# shellcheck shell=bash
# Operator commands of the mirror (docs/mirror.md): its status, and restores from the bucket into a
# sandbox through the file API. Sourced; defines functions only. Uses s3.sh and services.sh.

# bin/workcell mirror — lag, objects, bytes, last error (sandbox-mirror's GET /mirror/status).
mirror_status() {
  local body
  body=$(curl -sf "http://127.0.0.1:${WC_PORT[sandbox-mirror]}/mirror/status") || wc_die "sandbox-mirror does not answer (bin/workcell status)"
  python3 - "$body" <<'PY'
import json, sys
s = json.loads(sys.argv[1])
if not s.get("enabled"):
    print("mirror: off (no S3 endpoint configured)")
    sys.exit(0)
mib = 1048576
print("bucket          %s" % s["bucket"])
print("volumes         %d (%d in first sync, %d walked instead of watched, %d watches)"
      % (s["volumes"], s["volumesSyncing"], s["unwatchedVolumes"], s["watches"]))
print("objects         %d (%.1f MiB)" % (s["objects"], s["bytes"] / mib))
print("lag             %.1f s (%d folders pending%s)" % (s["lagSeconds"], s["pendingFolders"], ", idle" if s.get("idle") else ""))
print("uploaded        %d PUTs, %.1f MiB since start" % (s["puts"], s["bytesUploaded"] / mib))
print("skipped         %d links, %d special files, %d over the size limit"
      % (s["linksSkipped"], s["specialsSkipped"], s["oversizedSkipped"]))
for k in s.get("recentSkips") or []:
    print("  %s  %s: %s" % (k["at"], k["key"], k["reason"]))
last = " (last %s: %s)" % (s["lastErrorAt"], s["lastError"]) if s.get("lastError") else ""
print("errors          %d%s" % (s["errors"], last))
PY
}

# bin/workcell restore --home USER_ID | --task ID [--path P] [--deleted-on DATE] — files from the
# bucket (or from .deleted/DATE/) back into the sandbox through the file API, as the operator.
mirror_restore() {
  s3_ready || wc_die "the S3 server does not answer (bin/workcell status)"
  local -a auth=()
  if [[ " $* " == *" --task "* ]]; then
    auth=(WORKCELL_ADMIN_TOKEN="$(wc_admin_token)")
  else
    auth=(WORKCELL_TERMINAL_SERVER_KEY="$(wc_secret terminal-server-key)")
  fi
  env S3_URL="$WC_S3_URL" S3_BUCKET="$WC_S3_BUCKET" S3_ACCESS_KEY="$(wc_secret s3-access-key)" \
    S3_SECRET_KEY="$(wc_secret s3-secret-key)" WORKCELL_URL="$WC_URL" "${auth[@]}" \
    python3 "$ROOT/bin/lib/mirror-restore.py" "$@"
}
