#!/usr/bin/env bash
# Preview proxy overhead on a running stack: a 1 KB and a 1 MB GET through the signed preview URL
# (gateway → preview-proxy → the sandbox's published port) against the same GET straight to the
# published loopback port, p50/p99 and throughput, interleaved in one run (bench.py).
#
#   bench/preview-proxy/run.sh [URL] [TOKEN]     (default: the stack bin/workcell up started)
#
# Creates a task, writes the two files, starts its preview (python's http.server), measures, deletes
# the task. Prints a table and rewrites the top of results.md (sections from the first "## " stay).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
URL=${1:-http://127.0.0.1:8480}
TOKEN=${2:-$("$ROOT/bin/workcell" token --user "bench-preview-$$" --role admin)}
auth=(-H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json')
task=$(curl -sf -X POST "${auth[@]}" -d '{"message":"preview bench","provider":"ollama","model":"none","title":"preview bench"}' \
  "$URL/api/work/tasks" | python3 -c 'import json,sys; print(json.load(sys.stdin)["task"]["id"])')
trap 'curl -sf -X DELETE "${auth[@]}" "$URL/api/work/tasks/$task" >/dev/null || true' EXIT
put() { # put PATH < CONTENT (on stdin: 1 MB is beyond one argument's limit)
  python3 -c 'import json,sys; print(json.dumps({"path":sys.argv[1],"content":sys.stdin.read()}))' "$1" |
    curl -sf -X PUT "${auth[@]}" --data-binary @- "$URL/api/work/tasks/$task/file" >/dev/null
}
put index.html <<<'<h1>bench</h1>'
head -c 1024 /dev/zero | tr '\0' x | put 1k.bin
head -c 1048576 /dev/zero | tr '\0' x | put 1m.bin
# HTTP/1.1 keep-alive on both paths: http.server.test() sets the handler's protocol itself (HTTP/1.0 unless
# told), so without protocol= every request opened a new connection on both paths.
# TCP_NODELAY as real dev servers (node, vite) set it: python's handler writes head and body apart and
# otherwise holds the body (Nagle) until the head's delayed ACK, ~40 ms per small GET on either path.
server='import http.server as h; h.SimpleHTTPRequestHandler.protocol_version="HTTP/1.1"; h.SimpleHTTPRequestHandler.disable_nagle_algorithm=True; h.test(HandlerClass=h.SimpleHTTPRequestHandler, ServerClass=h.ThreadingHTTPServer, protocol="HTTP/1.1", port=4173, bind="0.0.0.0")'
body=$(python3 -c 'import json,sys; print(json.dumps({"command": "python3 -c " + sys.argv[1]}))' "'$server'")
started=$(curl -sf -X POST "${auth[@]}" -d "$body" "$URL/api/work/tasks/$task/preview/start")
path=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["path"])' "$started")
direct=$(docker ps --filter "label=dev.workcell.task=$task" --format '{{.Ports}}' | sed -n 's/.*127\.0\.0\.1:\([0-9]*\)->.*/\1/p' | head -n 1)
[[ -n $direct ]] || { echo "no published port for $task" >&2; exit 1; }
python3 "$ROOT/bench/preview-proxy/bench.py" "$URL$path" "http://127.0.0.1:$direct/" "$ROOT/bench/preview-proxy/results.md"
