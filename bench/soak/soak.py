#!/usr/bin/env python3
"""Soak: mixed traffic from many users for a while, each JVM's RSS against its warm value (issue 23).

Users (20 by default), each a thread with its own keep-alive connection:
  - Open Terminal users: write a 4 KB file, read it, run_command `echo`, list; every --big-every-th
    round also a ~1 MB write and read.
  - Work users (--work-users, each with a task of its own): the same file mix through the Work API
    (PUT/GET .../file, GET .../files).
  - one agent user: a Work task whose runs of the fixture model ("fault-soak": twelve rounds of a
    command and a write) follow one another; each run's SSE event stream is followed to its end.
  - one terminal user: an Open Terminal terminal over its WebSocket, typing `echo` lines and timing
    the echo; a new terminal every --terminal-rounds lines (the old one is deleted).
RSS of every service is sampled from its pid file every 5 s of the warm-up and every 10 s after; the
warm value is the warm-up's highest sample (RSS saws up and down between native-heap trims), and a
service passes when no measured sample is more than 10 % above it. Heap used after a full GC (jcmd GC.run) is read at warm, at the end while traffic
still runs, and once more after the traffic stopped; CPU seconds (user + system) over the measured
time from /proc. With --kill SERVICE the soak sends SIGKILL to
that service halfway and counts 503 problems in the minute after as documented (the launcher
restarts it); without it every 5xx is a failure. Writes a JSON report and a Markdown summary (the
summary's top section; sections from its first "## " heading on are kept). python3 stdlib only.

  soak.py URL ADMIN_TOKEN TERMINAL_KEY RUN_DIR RESULTS_MD [--json RESULTS_JSON] [--users 20]
          [--work-users 4] [--minutes 10] [--warmup 60] [--big-every 10] [--kill SERVICE]
          [--series RSS.csv] [--snapshots FOLDER] [--workcell BIN]
"""
import argparse
import datetime
import json
import os
import random
import re
import signal
import subprocess
import sys
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bin", "lib", "e2e"))
from overload import Client  # noqa: E402  (one keep-alive connection per thread; status None without an answer)
from ws_client import WebSocket  # noqa: E402

SERVICES = ["gateway-service", "task-service", "agent-runner-service", "sandbox-service",
            "preview-proxy-service", "terminal-service", "sandbox-mirror"]
SMALL = 4 * 1024
BIG = 1_000_000  # "about 1 MB": under the Work API's 2,000,000-byte file limit
FAULT_WINDOW = 60.0  # seconds after a kill in which 503 problems are the documented answer
HUNG_AFTER = 5.0  # an answer later than this after the kill (or its own start) is a hang, not a prompt retryable error
STREAMS = {"run event stream (whole run)"}  # long by nature: not counted as hangs
RSS_GOAL = 0.10


class Stats:
    """Latency per operation (measured phase only) and every answer by operation, status and problem code."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latency = {}
        self.answers = {}
        self.bad = []  # 5xx (other than documented 503s in a fault window) and answers without a status
        self.measuring = False
        self.fault_at = None
        self.ready = set()  # users that finished a first round: the warm-up starts when all have
        self.events = 0
        self.after_fault = []  # (op, start, end, status, code), seconds relative to the kill, for answers after it

    def mark_ready(self, user):
        with self.lock:
            self.ready.add(user)

    def add(self, op, status, took, data=b""):
        code = None
        if isinstance(status, int) and status >= 400:
            try:
                code = json.loads(data).get("code")
            except (ValueError, AttributeError, TypeError):
                code = None
        key = "%s %s" % (status if status is not None else "no-answer", code or "")
        with self.lock:
            now = time.monotonic()
            in_fault = self.fault_at is not None and 0 <= now - self.fault_at <= FAULT_WINDOW
            if self.fault_at is not None and now >= self.fault_at and op not in STREAMS:
                self.after_fault.append((op, round(now - took - self.fault_at, 3), round(now - self.fault_at, 3), status, code))
            by_op = self.answers.setdefault(op, {})
            by_op[key.strip()] = by_op.get(key.strip(), 0) + 1
            documented = in_fault and status == 503 and code is not None
            if (status is None or (isinstance(status, int) and status >= 500)) and not documented:
                if not (in_fault and status is None):  # the gateway itself killed: refused for a moment
                    self.bad.append("%s: %s %s" % (op, key.strip(), bytes(data[:200]) if isinstance(data, bytes) else data))
            if self.measuring and isinstance(status, int) and status < 400:
                self.latency.setdefault(op, []).append(took)

    def reset(self):
        with self.lock:
            self.measuring = True
            self.answers, self.bad = {}, []


def read_pid(run_dir, service):
    try:
        return int(open(os.path.join(run_dir, service + ".pid")).read().strip())
    except (OSError, ValueError):
        return None


def rss_kib(run_dir, service):
    pid = read_pid(run_dir, service)
    try:
        for line in open("/proc/%d/status" % pid):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, TypeError):
        return None
    return None


def cpu_seconds(run_dir, service):
    """User plus system CPU time of the service's process so far (/proc/PID/stat), None if it is gone."""
    pid = read_pid(run_dir, service)
    try:
        fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, TypeError, IndexError, ValueError):
        return None


def jcmd_of(pid):
    exe = os.path.realpath("/proc/%d/exe" % pid)
    for candidate in (os.path.join(os.path.dirname(exe), "jcmd"),
                      os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "jcmd")):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def heap_after_gc_kib(run_dir, service):
    """Heap used (KiB) right after a full GC, every generation together; None when it cannot be read."""
    pid = read_pid(run_dir, service)
    try:
        jcmd = jcmd_of(pid)
        subprocess.run([jcmd, str(pid), "GC.run"], capture_output=True, timeout=60, check=True)
        info = subprocess.run([jcmd, str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, TypeError, subprocess.SubprocessError):
        return None
    used = [int(m) for m in re.findall(
        r"^\s*(?:DefNew|Tenured|def new generation|tenured generation|garbage-first heap|PSYoungGen|ParOldGen)\b.*?used (\d+)K",
        info, re.M)]
    return sum(used) if used else None


def heaps(run_dir):
    return {s: heap_after_gc_kib(run_dir, s) for s in SERVICES}


# --- users ----------------------------------------------------------------------------------------

def file_rounds(user, stop, stats, big_every, write, read, listing, extra=None):
    """One user's loop over its file mix; write/read/listing(size_label, ...) return (status, data, took)."""
    i = 0
    while not stop.is_set():
        i += 1
        ops = [("write 4 KB", lambda: write("soak/f%d.txt" % (i % 20), SMALL)),
               ("read 4 KB", lambda: read("soak/f%d.txt" % (i % 20))),
               ("list", listing)]
        if extra:
            ops.append(extra)
        if i % big_every == 0:
            ops += [("write 1 MB", lambda: write("soak/big.txt", BIG)), ("read 1 MB", lambda: read("soak/big.txt"))]
        for op, call in ops:
            status, _, _, data, took = call()
            stats.add(op, status, took, data)
        stats.mark_ready(user)
        time.sleep(random.uniform(0.05, 0.2))


def contents(n):
    """JSON-ready text of the two sizes for user n (made once: a 1 MB body is not rebuilt per request)."""
    digit = str(n % 10)
    return {SMALL: digit * SMALL, BIG: (digit * 99 + "\n") * (BIG // 100)}


def terminal_user(client, key, n, stats, stop, big_every):
    headers = {"Authorization": "Bearer " + key, "X-User-Id": "soak-%d" % n, "Content-Type": "application/json"}
    base = "/api/open-terminal"
    text = contents(n)
    bodies = {}

    def write(path, size):
        body = bodies.get((path, size)) or json.dumps({"path": path, "content": text[size]}).encode()
        bodies[(path, size)] = body
        return client.request("POST", base + "/files/write", headers, body)

    def read(path):
        return client.request("GET", base + "/files/read?path=" + urllib.parse.quote(path), headers)

    echo = json.dumps({"command": "echo soak"}).encode()
    file_rounds("terminal-%d" % n, stop, stats, big_every, write, read,
                lambda: client.request("GET", base + "/files/list?directory=soak", headers),
                extra=("run_command echo", lambda: client.request("POST", base + "/execute?wait=10", headers, echo)))
    # 4 KB and 1 MB are labelled per API so the two paths can be compared.


def work_task(client, headers, message, model, stats, stop):
    """Creates a task (retrying refusals during start-up); its id or None."""
    body = json.dumps({"message": message, "provider": "ollama", "model": model}).encode()
    while not stop.is_set():
        status, _, retry_after, data, took = client.request("POST", "/api/work/tasks", headers, body)
        stats.add("task create", status, took, data)
        if status in (200, 201):
            return json.loads(data)["task"]["id"]
        time.sleep(float(retry_after or 2))
    return None


def work_files_user(client, token, n, stats, stop, big_every):
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    task = work_task(client, headers, "Soak files.", "life-soak", stats, stop)
    if not task:
        return
    text = contents(n)
    bodies = {}

    def write(path, size):
        body = bodies.get((path, size)) or json.dumps({"path": path, "content": text[size], "createParents": True}).encode()
        bodies[(path, size)] = body
        return client.request("PUT", "/api/work/tasks/%s/file" % task, headers, body)

    def read(path):
        return client.request("GET", "/api/work/tasks/%s/file?path=%s" % (task, urllib.parse.quote(path)), headers)

    file_rounds("work-%d" % n, stop, stats, big_every, write, read,
                lambda: client.request("GET", "/api/work/tasks/%s/files?path=soak" % task, headers))


def agent_user(client, url, token, stats, stop):
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    task = work_task(client, headers, "Soak.", "fault-soak", stats, stop)
    again = json.dumps({"message": "Again."}).encode()
    while task and not stop.is_set():
        status, _, _, data, took = client.request("GET", "/api/work/tasks/" + task, headers)
        stats.add("task get", status, took, data)
        run = json.loads(data).get("latestRun") if status == 200 else None
        if run and run.get("state") in ("preparing", "running"):
            # Follow the run's SSE event stream to its end, as the UI does.
            start = time.monotonic()
            try:
                request = urllib.request.Request(url + "/api/work/tasks/%s/runs/%s/events" % (task, run["id"]),
                                                 headers={"Authorization": "Bearer " + token, "Accept": "text/event-stream"})
                events = 0
                with urllib.request.urlopen(request, timeout=60) as r:
                    while not stop.is_set():
                        line = r.readline()
                        if not line:
                            break
                        events += line.startswith(b"data:")
                stats.add("run event stream (whole run)", 200, time.monotonic() - start)
                with stats.lock:
                    stats.events += events
            except urllib.error.HTTPError as e:
                stats.add("run event stream (whole run)", e.code, time.monotonic() - start, e.read())
            except OSError as e:
                stats.add("run event stream (whole run)", None, time.monotonic() - start, repr(e).encode())
        elif run:
            stats.mark_ready("agent")
            status, _, _, data, took = client.request("POST", "/api/work/tasks/%s/runs" % task, headers, again)
            stats.add("run start", status, took, data)
        time.sleep(1)


def websocket_user(url, key, stats, stop, rounds):
    """Open Terminal terminals over their WebSocket: echo round trips; a fresh terminal every `rounds` lines."""
    base = url + "/api/open-terminal/api/terminals"
    headers = {"Authorization": "Bearer " + key, "X-User-Id": "soak-terminal"}

    def call(method, target):
        start = time.monotonic()
        try:
            with urllib.request.urlopen(urllib.request.Request(target, method=method, headers=headers), timeout=60) as r:
                return r.status, r.read(), time.monotonic() - start
        except urllib.error.HTTPError as e:
            return e.code, e.read(), time.monotonic() - start
        except OSError as e:
            return None, repr(e).encode(), time.monotonic() - start

    line = 0
    while not stop.is_set():
        status, data, took = call("POST", base)
        stats.add("terminal create", status, took, data)
        if status != 200:
            time.sleep(2)
            continue
        terminal = json.loads(data)["id"]
        start = time.monotonic()
        try:
            ws = WebSocket(url.replace("http://", "ws://") + "/api/open-terminal/api/terminals/" + terminal)
            ws.send_text(json.dumps({"type": "auth", "token": key}))
            stats.add("terminal connect", 101, time.monotonic() - start)
            for _ in range(rounds):
                if stop.is_set():
                    break
                line += 1
                mark = ("k%d" % (line * 7 + 1)).encode()  # the shell computes it: the echo of the input does not match
                start = time.monotonic()
                ws.send_binary(b"echo k$((%d*7+1))\r" % line)
                seen = b""
                ws.settimeout(30)
                while mark not in seen:
                    opcode, payload = ws.recv()
                    seen = (seen + payload)[-4096:]
                stats.add("terminal echo", 200, time.monotonic() - start)
                stats.mark_ready("websocket")
                time.sleep(0.2)
        except Exception as e:  # noqa: BLE001 - a dropped terminal is an answer we count
            stats.add("terminal echo", None, time.monotonic() - start, repr(e).encode())
        # Deleted while its socket is open (closing the socket first ends the terminal by itself).
        status, data, took = call("DELETE", base + "/" + terminal)
        stats.add("terminal delete", status, took, data)
        try:
            ws.close()
        except Exception:  # noqa: BLE001 - already closed by the delete
            pass


# --- report ---------------------------------------------------------------------------------------

def wait_ready(url, service, since, out):
    """Seconds from the kill until the killed service's /q/health/ready answers 200 again (its launcher port)."""
    port = int(urllib.parse.urlparse(url).port or 80) + SERVICES.index(service)
    while time.monotonic() - since < 300:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/q/health/ready" % port, timeout=2) as r:
                if r.status == 200:
                    out["ready_seconds"] = round(time.monotonic() - since, 2)
                    return
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.25)


def fault_summary(after_fault):
    """In-flight requests at the kill and requests sent in the fault window: how soon each was answered."""
    in_flight = [a for a in after_fault if a[1] < 0]
    sent_after = [a for a in after_fault if 0 <= a[1] <= FAULT_WINDOW]
    waited = [a for a in in_flight if a[2] > HUNG_AFTER] + [a for a in sent_after if a[2] - a[1] > HUNG_AFTER]
    # A failure (or no answer) after a long wait is a hang; a success that took long was served slowly.
    hung = [a for a in waited if not (isinstance(a[3], int) and a[3] < 400)]
    slow = [a for a in waited if isinstance(a[3], int) and a[3] < 400]
    by_answer = {}
    for op, start, end, status, code in in_flight:
        key = "%s %s" % (status if status is not None else "no-answer", code or "")
        by_answer[key.strip()] = by_answer.get(key.strip(), 0) + 1
    return {"in_flight": len(in_flight), "in_flight_answers": by_answer,
            "in_flight_max_seconds_after_kill": round(max((a[2] for a in in_flight), default=0), 2),
            "sent_in_window": len(sent_after),
            "sent_in_window_max_seconds": round(max((a[2] - a[1] for a in sent_after), default=0), 2),
            "slow_successes": len(slow), "slow_examples": ["%s %.1f s" % (a[0], a[2] - max(a[1], 0)) for a in slow[:5]],
            "hung": len(hung), "hung_examples": ["%s %s %s %.1f s" % (a[0], a[3], a[4] or "", a[2] - max(a[1], 0))
                                                 for a in hung[:5]]}


def snapshot(run_dir, folder, label, histogram):
    """What each JVM holds (heap, native memory, classes): bench/soak/snapshot.sh."""
    subprocess.run([os.path.join(HERE, "snapshot.sh"), run_dir, folder, label] + SERVICES,
                   env=dict(os.environ, HISTOGRAM="1" if histogram else "0"), check=False)


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))] if values else 0


def load_average():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def mib(kib):
    return None if kib is None else round(kib / 1024.0, 1)


def summary(report):
    r = report
    lines = ["# soak", "",
             "%s; %d users (%d Open Terminal file/command users, %d Work file users, 1 agent user with the fixture model "
             "and its SSE event stream, 1 terminal WebSocket user), set up in %.0f s (every user's first round), then %.0f s warm-up, %.1f min measured%s. Load average "
             "%s at the start, %s at the end (%d cores). Run: `bench/soak/run.sh%s`." % (
                 r["started"], r["users"], r["open_terminal_users"], r["work_users"], r["setup_seconds"], r["warmup_seconds"],
                 r["measured_seconds"] / 60, ", %s killed with SIGKILL at %.0f s" % (r["kill"]["service"], r["kill"]["at_seconds"])
                 if r["kill"] else "", r["load_start"], r["load_end"], os.cpu_count(), r["arguments"]), "",
             "Throughput: %.1f requests/s (%d answers); answers by status: %s; 5xx: %s; run events received: %d." % (
                 r["throughput_per_second"], r["answers_total"], ", ".join("%s: %d" % kv for kv in sorted(r["by_status"].items())),
                 "%d (%s)" % (len(r["failures"]), "; ".join(r["failures"][:5])) if r["failures"] else "none",
                 r["run_events"]), "",
             ] + (["Fault: %s killed at %.0f s, ready again after %s s. In flight at the kill: %d (%s), the last answered "
                   "%.1f s after the kill; sent in the %d s after it: %d, the slowest answered in %.1f s; hung (a failure or "
                   "no answer more than %.0f s after the kill or the request): %d%s; successes that took longer: %d%s." % (
                       r["kill"]["service"], r["kill"]["at_seconds"], r["kill"].get("ready_seconds", "no"),
                       r["kill"]["in_flight"], ", ".join("%s: %d" % kv for kv in sorted(r["kill"]["in_flight_answers"].items())),
                       r["kill"]["in_flight_max_seconds_after_kill"], FAULT_WINDOW, r["kill"]["sent_in_window"],
                       r["kill"]["sent_in_window_max_seconds"], HUNG_AFTER, r["kill"]["hung"],
                       " (%s)" % "; ".join(r["kill"]["hung_examples"]) if r["kill"]["hung"] else "",
                       r["kill"]["slow_successes"],
                       " (%s)" % "; ".join(r["kill"]["slow_examples"]) if r["kill"]["slow_successes"] else ""), ""]
                  if r["kill"] and "in_flight" in r["kill"] else []) + [
             "| operation | count | per s | p50 (ms) | p99 (ms) | other answers |", "|---|---:|---:|---:|---:|---|"]
    for op, o in sorted(r["operations"].items()):
        lines.append("| %s | %d | %.1f | %.1f | %.1f | %s |" % (op, o["count"], o["per_second"], o["p50_ms"], o["p99_ms"],
                                                           ", ".join("%s: %d" % kv for kv in sorted(o["other"].items())) or ""))
    lines += ["", "RSS every 5 s of the warm-up and every 10 s of the measured time; warm is the warm-up's highest"
              " sample (its median beside it), compared with the highest of the measured time and of its last minute;"
              " CPU is each process's user + system seconds over the measured time.",
              "", "| service | RSS warm (median) (MiB) | RSS peak (MiB) | last minute's peak (MiB) | RSS end (MiB) | peak vs warm "
              "| last minute vs warm | within 10 % | heap after full GC warm → end → idle (MiB) | CPU (s) |",
              "|---|---:|---:|---:|---:|---:|---:|---|---|---:|"]
    for s, v in r["services"].items():
        if v["rss_warm_mib"] is None:
            continue
        lines.append("| %s | %.0f (%.0f) | %.0f | %.0f | %.0f | %+.1f %% | %+.1f %% | %s | %s → %s → %s | %s |" % (
            s, v["rss_warm_mib"], v["rss_warm_median_mib"], v["rss_peak_mib"], v["rss_last_minute_peak_mib"] or 0,
            v["rss_end_mib"], v["peak_vs_warm_pct"], v["last_minute_vs_warm_pct"] or 0,
            "yes" if v["rss_pass"] else ("restarted" if v["restarted"] else "**no**"),
            v["heap_warm_mib"], v["heap_end_mib"], v["heap_idle_mib"], "–" if v.get("cpu_seconds") is None else "%.1f" % v["cpu_seconds"]))
    return lines


def write_summary(path, lines):
    """The new top section; hand-written sections from the first "## " heading on stay."""
    kept = []
    if os.path.exists(path):
        old = open(path).read().splitlines()
        first = next((i for i, l in enumerate(old) if l.startswith("## ")), None)
        kept = [""] + old[first:] if first is not None else []
    open(path, "w").write("\n".join(lines + kept) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("token")
    parser.add_argument("key")
    parser.add_argument("run_dir")
    parser.add_argument("results")
    parser.add_argument("--json", help="the JSON report (default: RESULTS with .json)")
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--work-users", type=int, default=4)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=60)
    parser.add_argument("--setup-timeout", type=float, default=300, help="longest wait for every user's first round")
    parser.add_argument("--big-every", type=int, default=10, help="a 1 MB write and read every N rounds of a file user")
    parser.add_argument("--terminal-rounds", type=int, default=200, help="echo lines per terminal before a fresh one")
    parser.add_argument("--kill", choices=SERVICES, help="SIGKILL this service halfway through the measured time")
    parser.add_argument("--series", help="CSV of every service's RSS (MiB) every 10 s")
    parser.add_argument("--snapshots", help="folder for bench/soak/snapshot.sh at warm (no histogram) and at the end")
    parser.add_argument("--workcell", default=os.path.join(ROOT, "bin", "workcell"), help="issues the Work users' tokens")
    args = parser.parse_args()
    url = args.url.rstrip("/")
    n_terminal = args.users - args.work_users - 2
    if n_terminal < 1:
        parser.error("--users must exceed --work-users + 2")
    started_at = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    load_start = load_average()
    tokens = [subprocess.run([args.workcell, "token", "--user", "soak-work-%d" % n], capture_output=True, text=True,
                             check=True).stdout.strip().splitlines()[-1] for n in range(args.work_users)]
    client = Client(url)
    stats, stop = Stats(), threading.Event()
    if args.work_users:  # Work is open to admins only by default: the Work file users are plain users
        status, _, _, data, _ = client.request("PUT", "/api/work/admin/access", {
            "Authorization": "Bearer " + args.token, "Content-Type": "application/json"}, b'{"mode":"users"}')
        if status != 200:
            raise SystemExit("could not open Work to users: %s %r" % (status, data[:300]))
    users = [(terminal_user, (client, args.key, n, stats, stop, args.big_every)) for n in range(n_terminal)]
    users += [(work_files_user, (client, tokens[n], n, stats, stop, args.big_every)) for n in range(args.work_users)]
    users += [(agent_user, (client, url, args.token, stats, stop)),
              (websocket_user, (url, args.key, stats, stop, args.terminal_rounds))]
    threads = [threading.Thread(target=f, args=a, daemon=True) for f, a in users]
    for t in threads:
        t.start()
    # Setup (sandboxes made, first answers) is not warm-up: the warm-up minute starts once every user
    # has finished a first round (the agent user: once its first run ended), or after --setup-timeout.
    setup_start = time.monotonic()
    while len(stats.ready) < len(users) and time.monotonic() - setup_start < args.setup_timeout:
        time.sleep(1)
    setup_seconds = time.monotonic() - setup_start
    print("setup: %d of %d users ready in %.0f s; warm-up %.0f s" % (len(stats.ready), len(users), setup_seconds,
                                                                    args.warmup), flush=True)
    # RSS moves in a sawtooth of about ±8 % between the launcher's native-heap trims (every 30 s), so
    # one warm sample is a matter of timing: the warm value is the envelope of the warm-up's samples
    # (every 5 s), and it is compared with the same envelope of the measured time and of its last minute.
    warm_samples = {s: [] for s in SERVICES}
    warm_end = time.monotonic() + args.warmup
    while time.monotonic() < warm_end:
        time.sleep(min(5, max(0, warm_end - time.monotonic())))
        for s in SERVICES:
            now = rss_kib(args.run_dir, s)
            if now:
                warm_samples[s].append(now)
    warm = {s: (max(v) if v else None) for s, v in warm_samples.items()}
    warm_median = {s: (statistics.median(v) if v else None) for s, v in warm_samples.items()}
    pids = {s: read_pid(args.run_dir, s) for s in SERVICES}
    peak = {s: None for s in SERVICES}
    measured = {s: [] for s in SERVICES}
    series_rows = []
    if args.snapshots:
        snapshot(args.run_dir, args.snapshots, "warm", histogram=False)
    heap_warm = heaps(args.run_dir)
    stats.reset()
    cpu_warm = {s: cpu_seconds(args.run_dir, s) for s in SERVICES}
    started = time.monotonic()
    kill = None
    while time.monotonic() - started < args.minutes * 60:
        time.sleep(10)
        if args.kill and kill is None and time.monotonic() - started >= args.minutes * 30:
            pid = read_pid(args.run_dir, args.kill)
            with stats.lock:
                stats.fault_at = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            kill = {"service": args.kill, "pid": pid, "at_seconds": round(time.monotonic() - started, 1)}
            threading.Thread(target=wait_ready, args=(url, args.kill, stats.fault_at, kill), daemon=True).start()
            print("killed %s (pid %d) at %.0f s" % (args.kill, pid, kill["at_seconds"]), flush=True)
        sample = {s: rss_kib(args.run_dir, s) for s in SERVICES}
        for s, now in sample.items():
            if now:
                measured[s].append(now)
            if now and (peak.get(s) or 0) < now:
                peak[s] = now
        series_rows.append([round(time.monotonic() - started)] + [mib(sample[s]) for s in SERVICES])
    final = {s: rss_kib(args.run_dir, s) for s in SERVICES}
    cpu_end = {s: cpu_seconds(args.run_dir, s) for s in SERVICES}
    elapsed = time.monotonic() - started
    with stats.lock:
        stats.measuring = False
        latency = {k: list(v) for k, v in stats.latency.items()}
        answers = {k: dict(v) for k, v in stats.answers.items()}
        bad = list(stats.bad)
        events = stats.events
    if args.snapshots:
        snapshot(args.run_dir, args.snapshots, "end", histogram=True)
    heap_end = heaps(args.run_dir)
    stop.set()
    deadline = time.monotonic() + 70  # a request in flight ends within its 60 s timeout
    for t in threads:
        t.join(timeout=max(0.1, deadline - time.monotonic()))
    time.sleep(5)
    heap_idle = heaps(args.run_dir)
    if kill:
        with stats.lock:
            kill.update(fault_summary(list(stats.after_fault)))

    by_status = {}
    for op_answers in answers.values():
        for key, count in op_answers.items():
            status = key.split(" ")[0]
            by_status[status] = by_status.get(status, 0) + count
    operations = {}
    for op, values in latency.items():
        other = {k: v for k, v in answers.get(op, {}).items() if not k[:1] in "123"}
        operations[op] = {"count": len(values), "per_second": round(len(values) / elapsed, 2),
                          "p50_ms": round(percentile(values, 50) * 1000, 1), "p99_ms": round(percentile(values, 99) * 1000, 1),
                          "max_ms": round(max(values) * 1000, 1), "other": other}
    for op in answers:
        if op not in operations:
            operations[op] = {"count": 0, "per_second": 0, "p50_ms": 0, "p99_ms": 0, "max_ms": 0, "other": answers[op]}
    services = {}
    for s in SERVICES:
        w, p, e = warm.get(s), peak.get(s), final.get(s)
        last = measured[s][-6:]  # the last minute
        last_peak = max(last) if last else None
        restarted = read_pid(args.run_dir, s) != pids.get(s)
        services[s] = {
            "rss_warm_mib": mib(w), "rss_warm_median_mib": mib(warm_median.get(s)), "rss_peak_mib": mib(p),
            "rss_last_minute_peak_mib": mib(last_peak), "rss_end_mib": mib(e),
            "end_vs_warm_pct": round(100.0 * (e - w) / w, 1) if w and e else None,
            "peak_vs_warm_pct": round(100.0 * (p - w) / w, 1) if w and p else None,
            "last_minute_vs_warm_pct": round(100.0 * (last_peak - w) / w, 1) if w and last_peak else None,
            "rss_pass": bool(w and p and not restarted and p <= w * (1 + RSS_GOAL)), "restarted": restarted,
            "heap_warm_mib": mib(heap_warm[s]), "heap_end_mib": mib(heap_end[s]), "heap_idle_mib": mib(heap_idle[s]),
            "cpu_seconds": round(cpu_end[s] - cpu_warm[s], 1) if cpu_end[s] is not None and cpu_warm[s] is not None and not restarted else None}
    shown = sys.argv[6:]
    if "--json" in shown:  # where the report went is not how the soak ran
        del shown[shown.index("--json"):shown.index("--json") + 2]
    argv = " ".join(shown)
    report = {"started": started_at, "users": args.users, "open_terminal_users": n_terminal, "work_users": args.work_users,
              "setup_seconds": round(setup_seconds, 1), "users_ready": len(stats.ready), "warmup_seconds": args.warmup, "measured_seconds": round(elapsed, 1), "load_start": load_start,
              "load_end": load_average(), "arguments": (" " + argv) if argv else "", "kill": kill,
              "answers_total": sum(by_status.values()),
              "throughput_per_second": round(sum(by_status.values()) / elapsed, 1), "by_status": by_status,
              "failures": bad, "run_events": events, "operations": operations, "services": services,
              "rss_series": {"columns": ["seconds"] + SERVICES, "rows": series_rows},
              "pass": not bad and all(v["rss_pass"] or v["restarted"] for v in services.values() if v["rss_warm_mib"])}
    json_path = args.json or os.path.splitext(args.results)[0] + ".json"
    with open(json_path, "w") as f:
        json.dump(report, f, indent=1)
    if args.series:
        with open(args.series, "w") as f:
            f.write("seconds," + ",".join(SERVICES) + "\n")
            for row in series_rows:
                f.write(",".join("" if v is None else str(v) for v in row) + "\n")
    lines = summary(report)
    write_summary(args.results, lines)
    print("\n".join(lines))
    print("pass" if report["pass"] else "FAIL", flush=True)
    return 0 if report["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
