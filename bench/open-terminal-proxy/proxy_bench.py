#!/usr/bin/env python3
"""GETs through Open Terminal's /proxy/{port} vs. the same GETs inside the sandbox, one run.

usage: proxy_bench.py URL KEY OUT.md [--instance NAME] [--samples-1k N] [--samples-1m N]
"""
import argparse
import datetime
import http.client
import importlib.util
import json
import os
import subprocess
import time
import urllib.parse

# pct and home_container are the terminal-server bench's (same stack, same homes).
_spec = importlib.util.spec_from_file_location("terminal_bench",
                                               os.path.join(os.path.dirname(__file__), "..", "terminal-server", "bench.py"))
terminal_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(terminal_bench)
pct, home_container = terminal_bench.pct, terminal_bench.home_container

PORT = 18700
WARMUP = 30
# HTTP/1.1 keep-alive (http.server's default HTTP/1.0 closes every connection), TCP_NODELAY as real
# dev servers set it (see bench/preview-proxy/run.sh).
SERVER = ('import http.server as h; h.SimpleHTTPRequestHandler.protocol_version="HTTP/1.1"; '
          'h.SimpleHTTPRequestHandler.disable_nagle_algorithm=True; '
          'h.test(HandlerClass=h.SimpleHTTPRequestHandler, ServerClass=h.ThreadingHTTPServer, port=%d, bind="127.0.0.1")' % PORT)
# Run inside the sandbox: the same keep-alive GETs to the server's loopback; prints nanoseconds per request.
INSIDE = r'''
import http.client, json, sys, time
port, name, n, warmup = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
times = []
for i in range(warmup + n):
    start = time.perf_counter_ns()
    conn.request("GET", "/" + name)
    r = conn.getresponse(); body = r.read()
    assert r.status == 200, r.status
    if i >= warmup:
        times.append(time.perf_counter_ns() - start)
print(json.dumps({"times": times, "size": len(body)}))
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("key")
    ap.add_argument("out")
    ap.add_argument("--instance")
    ap.add_argument("--samples-1k", type=int, default=500)
    ap.add_argument("--samples-1m", type=int, default=100)
    a = ap.parse_args()
    root = a.url.rstrip("/")
    base = urllib.parse.urlparse(root if root.endswith("/api/open-terminal") else root + "/api/open-terminal")
    user = "bench/open-terminal-proxy"
    headers = {"Authorization": "Bearer " + a.key, "X-User-Id": user}
    conn = http.client.HTTPConnection(base.hostname, base.port, timeout=120)

    def call(method, path, body=None, extra=None):
        h = dict(headers, **(extra or {}))
        conn.request(method, base.path + path, body=body, headers=h)
        response = conn.getresponse()
        data = response.read()
        return response.status, data

    def run(command, wait=None):
        path = "/execute" + ("?wait=%d" % wait if wait else "")
        status, data = call("POST", path, json.dumps({"command": command}), {"Content-Type": "application/json"})
        if status != 200:
            raise SystemExit("run_command -> %s %s" % (status, data[:300]))
        return json.loads(data)

    run("python3 -c \"open('1k.bin','wb').write(b'x'*1024); open('1m.bin','wb').write(b'x'*1048576)\"", wait=30)
    server = run("exec python3 -c '%s'" % SERVER)
    deadline = time.time() + 20
    while call("GET", "/proxy/%d/1k.bin" % PORT)[0] != 200:
        if time.time() > deadline:
            raise SystemExit("the server did not answer through /proxy")
        time.sleep(0.3)
    container = home_container(user, a.instance)
    load = open("/proc/loadavg").read().split()[:3]
    rows = []
    try:
        for name, n in (("1k.bin", a.samples_1k), ("1m.bin", a.samples_1m)):
            inside = json.loads(subprocess.run(["docker", "exec", "-i", container, "python3", "-", str(PORT), name, str(n), str(WARMUP)],
                                               input=INSIDE, check=True, capture_output=True, text=True).stdout)
            proxied = []
            size = 0
            for i in range(WARMUP + n):
                start = time.perf_counter_ns()
                status, body = call("GET", "/proxy/%d/%s" % (PORT, name))
                took = time.perf_counter_ns() - start
                if status != 200:
                    raise SystemExit("/proxy/%d/%s -> %s" % (PORT, name, status))
                size = len(body)
                if i >= WARMUP:
                    proxied.append(took)
            d = inside["times"]
            thr_d = size * len(d) / (sum(d) / 1e9) / 1e6
            thr_p = size * len(proxied) / (sum(proxied) / 1e9) / 1e6
            rows.append((name, n, pct(d, 50) / 1e6, pct(d, 99) / 1e6, pct(proxied, 50) / 1e6, pct(proxied, 99) / 1e6,
                         (pct(proxied, 50) - pct(d, 50)) / 1e6, thr_d, thr_p, thr_p / thr_d))
    finally:
        if isinstance(server, dict) and server.get("id"):
            call("DELETE", "/execute/%s?force=true" % server["id"])
    load_after = open("/proc/loadavg").read().split()[:3]
    table = ["| file | samples | inside p50 ms | inside p99 ms | /proxy p50 ms | /proxy p99 ms | added p50 ms | inside MB/s | /proxy MB/s | /proxy/inside |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        table.append("| {} | {} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.1f} | {:.1f} | {:.0%} |".format(*r))
    out = "\n".join(table)
    print(out)
    kept = ""
    if os.path.exists(a.out):
        old = open(a.out).read()
        i = old.find("\n## ")
        kept = "" if i < 0 else old[i:]
    with open(a.out, "w") as f:
        f.write("""# open-terminal-proxy

Last run {when:%Y-%m-%dT%H:%M:%SZ}: load average {before} before, {after} after, on {cpus} cores.
"inside" is a keep-alive HTTP/1.1 client run in the user's home (`docker exec`) against python's
http.server on 127.0.0.1:{port}; "/proxy" is the same GET from the host through the gateway's
`/api/open-terminal/proxy/{port}/…` (one keep-alive client; each request is a new port stream: NATS →
sandbox-service → celld → a new connection to the server). {warmup} warm-up requests each; one request in flight.
Throughput is bytes over the summed request times. Run: `bench/open-terminal-proxy/run.sh`.

{table}
{kept}""".format(when=datetime.datetime.now(datetime.timezone.utc), before=" / ".join(load), after=" / ".join(load_after),
                 cpus=os.cpu_count(), port=PORT, warmup=WARMUP, table=out, kept=kept))


if __name__ == "__main__":
    main()
