#!/usr/bin/env python3
"""Soak: mixed traffic from many users for a while, each JVM's RSS against its warm value (issue 23).

Each Open Terminal user loops write 64 KB, read it back, run_command `echo`, list; one Work user
keeps an agent run of the fixture model going (runs_ollama_fixture.py, model "fault-…") and follows
its event stream. RSS of every service is sampled from its pid file; the warm value is the sample at
the end of the warm-up. Writes a Markdown report. python3 stdlib only.

  soak.py URL ADMIN_TOKEN TERMINAL_KEY RUN_DIR RESULTS_MD [--users 20] [--minutes 10] [--warmup 60]
          [--series RSS.csv] [--snapshots FOLDER]
"""
import argparse
import datetime
import os
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bin", "lib", "e2e"))
from fault_traffic import http  # noqa: E402  (status, body, seconds); a failure without an answer is a string

SERVICES = ["gateway-service", "task-service", "agent-runner-service", "sandbox-service",
            "preview-proxy-service", "terminal-service", "sandbox-mirror"]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency = {}
        self.status = {}
        self.measuring = False

    def add(self, op, status, took):
        with self.lock:
            self.status[status] = self.status.get(status, 0) + 1
            if self.measuring:
                self.latency.setdefault(op, []).append(took)


def rss_kib(run_dir, service):
    try:
        pid = open(os.path.join(run_dir, service + ".pid")).read().strip()
        for line in open("/proc/%s/status" % pid):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def terminal_user(url, key, n, stats, stop):
    headers = {"Authorization": "Bearer " + key, "X-User-Id": "soak-%d" % n}
    base = url + "/api/open-terminal"
    content = ("%d" % n) * (64 * 1024 // len("%d" % n))
    i = 0
    while not stop.is_set():
        i += 1
        path = "soak/f%d.txt" % (i % 20)
        for op, method, target, body in (
                ("write 64 KB", "POST", "/files/write", {"path": path, "content": content}),
                ("read 64 KB", "GET", "/files/read?path=" + path, None),
                ("run_command echo", "POST", "/execute?wait=10", {"command": "echo soak"}),
                ("list", "GET", "/files/list?directory=soak", None)):
            status, _, took = http(method, base + target, headers, body)
            stats.add(op, status, took)
        time.sleep(random.uniform(0.05, 0.2))


def work_user(url, token, stats, stop):
    headers = {"Authorization": "Bearer " + token}
    status, body, took = http("POST", url + "/api/work/tasks", headers,
                              {"message": "Soak.", "provider": "ollama", "model": "fault-soak"})
    stats.add("task create", status, took)
    if status not in (200, 201):
        return
    task = body["task"]["id"]
    while not stop.is_set():
        status, body, took = http("GET", url + "/api/work/tasks/" + task, headers)
        stats.add("task get", status, took)
        run = (body or {}).get("latestRun") if status == 200 else None
        if run and run.get("state") in ("preparing", "running"):
            # Follow the run's event stream for a while, as the UI does.
            start = time.monotonic()
            try:
                with urllib.request.urlopen(urllib.request.Request(
                        url + "/api/work/tasks/%s/runs/%s/events" % (task, run["id"]), headers=headers), timeout=30) as r:
                    while not stop.is_set() and r.readline():
                        pass
                stats.add("run events (whole stream)", 200, time.monotonic() - start)
            except (OSError, urllib.error.HTTPError):
                stats.add("run events (whole stream)", 0, time.monotonic() - start)
        elif run:
            status, _, took = http("POST", url + "/api/work/tasks/%s/runs" % task, headers, {"message": "Again."})
            stats.add("run start", status, took)
        time.sleep(1)


def snapshot(run_dir, folder, label, histogram):
    """What each JVM holds (heap, native memory, classes): bench/soak/snapshot.sh."""
    subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "snapshot.sh"), run_dir, folder, label],
                   env=dict(os.environ, HISTOGRAM="1" if histogram else "0"), check=False)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))] if values else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("key")
    parser.add_argument("run_dir")
    parser.add_argument("results")
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=60)
    parser.add_argument("--series", help="CSV of every service's RSS (MiB) every 10 s, to see growth level off or not")
    parser.add_argument("--snapshots", help="folder for bench/soak/snapshot.sh at warm (no histogram) and at the end")
    args = parser.parse_args()
    url = args.url.rstrip("/")
    stats, stop = Stats(), threading.Event()
    threads = [threading.Thread(target=terminal_user, args=(url, args.key, n, stats, stop), daemon=True)
               for n in range(args.users - 1)]
    threads.append(threading.Thread(target=work_user, args=(url, args.token, stats, stop), daemon=True))
    for t in threads:
        t.start()
    time.sleep(args.warmup)
    warm = {s: rss_kib(args.run_dir, s) for s in SERVICES}
    peak = dict(warm)
    series = open(args.series, "w") if args.series else None
    if series:
        series.write("seconds," + ",".join(SERVICES) + "\n")
    if args.snapshots:
        snapshot(args.run_dir, args.snapshots, "warm", histogram=False)
    with stats.lock:
        stats.measuring = True
        stats.status = {}
    started = time.monotonic()
    while time.monotonic() - started < args.minutes * 60:
        time.sleep(10)
        sample = {s: rss_kib(args.run_dir, s) for s in SERVICES}
        for s, now in sample.items():
            if now and (peak.get(s) or 0) < now:
                peak[s] = now
        if series:
            series.write("%.0f," % (time.monotonic() - started)
                         + ",".join("%.1f" % ((sample[s] or 0) / 1024) for s in SERVICES) + "\n")
            series.flush()
    final = {s: rss_kib(args.run_dir, s) for s in SERVICES}
    if args.snapshots:
        snapshot(args.run_dir, args.snapshots, "end", histogram=True)
    elapsed = time.monotonic() - started
    stop.set()
    with stats.lock:
        latency, status = dict(stats.latency), dict(stats.status)
    total = sum(len(v) for v in latency.values())
    server_errors = {k: v for k, v in status.items() if isinstance(k, int) and k >= 500}
    lines = ["# soak", "",
             "%s; %d users (%d Open Terminal, 1 Work user with an agent run of the fixture model and its event stream), "
             "%.0f s warm-up, %.1f min measured. Run: `bench/soak/run.sh`." % (
                 datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), args.users, args.users - 1,
                 args.warmup, elapsed / 60), "",
             "Throughput: %.1f requests/s; answers by status: %s; 5xx: %s." % (
                 total / elapsed, ", ".join("%s: %d" % (k, v) for k, v in sorted(status.items(), key=str)),
                 server_errors or "none"), "",
             "| operation | count | p50 (ms) | p99 (ms) |", "|---|---:|---:|---:|"]
    for op in sorted(latency):
        v = latency[op]
        lines.append("| %s | %d | %.1f | %.1f |" % (op, len(v), percentile(v, 50) * 1000, percentile(v, 99) * 1000))
    lines += ["", "| service | RSS warm (MiB) | RSS peak (MiB) | RSS end (MiB) | end vs warm |", "|---|---:|---:|---:|---:|"]
    for s in SERVICES:
        if warm.get(s) and final.get(s):
            lines.append("| %s | %.0f | %.0f | %.0f | %+.1f %% |" % (s, warm[s] / 1024, peak[s] / 1024, final[s] / 1024,
                                                                100.0 * (final[s] - warm[s]) / warm[s]))
    open(args.results, "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
