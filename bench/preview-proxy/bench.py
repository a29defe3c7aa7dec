"""Interleaved keep-alive GETs through the preview proxy and straight to the published port."""
import http.client, statistics, sys, time, os, urllib.parse, datetime

proxied, direct, results = sys.argv[1], sys.argv[2], sys.argv[3]
SAMPLES = {"1k.bin": int(os.environ.get("BENCH_SAMPLES_1K", 1000)), "1m.bin": int(os.environ.get("BENCH_SAMPLES_1M", 200))}
WARMUP = 50


class Client:
    def __init__(self, base):
        u = urllib.parse.urlsplit(base)
        self.path = u.path
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)

    def get(self, name):
        start = time.perf_counter_ns()
        self.conn.request("GET", self.path + name)
        r = self.conn.getresponse()
        body = r.read()
        took = time.perf_counter_ns() - start
        if r.status != 200:
            raise SystemExit(f"{self.path}{name}: {r.status} {body[:200]!r}")
        return took, len(body)


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100 * len(s))) - 1))]


rows = []
load_before = open("/proc/loadavg").read().split()[:3]
for name, n in SAMPLES.items():
    clients = {"direct": Client(direct), "proxied": Client(proxied)}
    for _ in range(WARMUP):
        for c in clients.values():
            c.get(name)
    times = {k: [] for k in clients}
    size = 0
    for _ in range(n):
        for k, c in clients.items():
            t, size = c.get(name)
            times[k].append(t)
    d, p = times["direct"], times["proxied"]
    thr = {k: size * len(v) / (sum(v) / 1e9) / 1e6 for k, v in times.items()}
    rows.append((name, n, pct(d, 50) / 1e6, pct(d, 99) / 1e6, pct(p, 50) / 1e6, pct(p, 99) / 1e6,
                 (pct(p, 50) - pct(d, 50)) / 1e6, thr["direct"], thr["proxied"], thr["proxied"] / thr["direct"]))

table = ["| file | samples | direct p50 ms | direct p99 ms | proxied p50 ms | proxied p99 ms | added p50 ms | direct MB/s | proxied MB/s | proxied/direct |",
         "|---|---|---|---|---|---|---|---|---|---|"]
for r in rows:
    table.append("| {} | {} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.1f} | {:.1f} | {:.0%} |".format(*r))
out = "\n".join(table)
print(out)
kept = ""
if os.path.exists(results):
    old = open(results).read()
    i = old.find("\n## ")
    kept = "" if i < 0 else old[i:]
with open(results, "w") as f:
    f.write(f"""# preview-proxy

Last run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ}: one keep-alive HTTP/1.1 client per path, one
request in flight, direct and proxied requests interleaved after {WARMUP} warm-up rounds; load average
{' / '.join(load_before)} before, on {os.cpu_count()} cores. "direct" is python's http.server in the
sandbox on its published loopback port; "proxied" is the same GET through the signed URL (gateway →
preview-proxy → that port). Throughput is bytes over the summed request times (one stream).
Goal (issue 21): added p50 ≤ 1 ms, throughput ≥ 80 % of direct. Run: `bench/preview-proxy/run.sh`.

{out}
{kept}""")
