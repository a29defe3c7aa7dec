#!/usr/bin/env python3
"""Bytes the JVMs allocate per MB written and read through gateway → NATS → sandbox-service.

For each operation (Work API save/read, Open Terminal write/read/view of a 2 MB file) it starts a
JFR recording in the gateway and in sandbox-service, runs the operation N times one after another,
stops the recordings and sums jdk.ThreadAllocationStatistics (bytes each thread allocated, sampled
at the start and end of the recording) over every thread. An idle interval of the same length is
measured the same way and subtracted. Prints MB allocated per MB of file content moved.

Usage: overload_alloc.py --url URL --terminal-key KEY --token USER=TOKEN --gateway-pid PID --sandbox-pid PID [--n 10]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from overload import TWO_MB, Stack, retrying  # noqa: E402

JAVA_HOME = os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64")


def jcmd(pid, *args):
    return subprocess.run([f"{JAVA_HOME}/bin/jcmd", str(pid), *args], check=True, capture_output=True, text=True).stdout


def allocated(path):
    """Bytes allocated during the recording, over all threads (a thread first seen at the end counts from 0)."""
    out = subprocess.run([f"{JAVA_HOME}/bin/jfr", "print", "--json", "--events", "jdk.ThreadAllocationStatistics", path],
                         check=True, capture_output=True, text=True).stdout
    events = json.loads(out)["recording"]["events"]
    first, last = {}, {}
    times = sorted({e["values"]["startTime"] for e in events})
    start = times[0] if times else None
    for e in events:
        v = e["values"]
        tid = v["thread"]["javaThreadId"] if v.get("thread") else v.get("threadId")
        if v["startTime"] == start:
            first.setdefault(tid, v["allocated"])
        last[tid] = v["allocated"]
    if len(times) < 2:
        return 0
    return sum(last[t] - first.get(t, 0) for t in last)


def measure(pids, work):
    tmp = tempfile.mkdtemp(prefix="wc-alloc-")
    for name, pid in pids.items():
        jcmd(pid, "JFR.start", f"name=alloc-{name}", "settings=default")
    time.sleep(0.5)
    start = time.monotonic()
    work()
    took = time.monotonic() - start
    result = {}
    for name, pid in pids.items():
        path = f"{tmp}/{name}.jfr"
        jcmd(pid, "JFR.stop", f"name=alloc-{name}", f"filename={path}")
        result[name] = allocated(path)
    return result, took


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--url", required=True)
    p.add_argument("--terminal-key", required=True)
    p.add_argument("--token", required=True, help="USER=TOKEN")
    p.add_argument("--gateway-pid", required=True)
    p.add_argument("--sandbox-pid", required=True)
    p.add_argument("--n", type=int, default=10)
    args = p.parse_args()
    ns = argparse.Namespace(url=args.url, terminal_key=args.terminal_key, token=[args.token])
    stack = Stack(ns)
    user = next(iter(stack.tokens))
    created = json.loads(retrying(lambda: stack.work(user, "POST", "/api/work/tasks",
                                                      {"message": "alloc", "provider": "ollama", "model": "qwen3:8b"})))
    stack.tasks[user] = created["task"]["id"]
    content = "a" * TWO_MB
    lines = "a" * 99 + "\n"
    text = lines * (TWO_MB // len(lines))
    retrying(lambda: stack.work_write(user, "alloc.txt", content))
    retrying(lambda: stack.terminal_write(user, "alloc.txt", text))

    def repeat(call):
        def run():
            for _ in range(args.n):
                retrying(call)
        return run

    ops = [
        ("work save 2 MB", repeat(lambda: stack.work_write(user, "alloc.txt", content))),
        ("work read 2 MB", repeat(lambda: stack.work_read(user, "alloc.txt"))),
        ("terminal write 2 MB", repeat(lambda: stack.terminal_write(user, "alloc.txt", text))),
        ("terminal read 2 MB", repeat(lambda: stack.terminal_read(user, "alloc.txt"))),
        ("terminal view 2 MB", repeat(lambda: stack.terminal_view(user, "alloc.txt"))),
    ]
    pids = {"gateway": args.gateway_pid, "sandbox": args.sandbox_pid}
    for _, op in ops:  # warm-up: JIT and first-use allocation stay out of the numbers
        op()
    idle, idle_s = measure(pids, lambda: time.sleep(3))
    mb = args.n * TWO_MB / 1e6
    print(f"idle: " + ", ".join(f"{k} {v / idle_s / 1e6:.2f} MB/s" for k, v in idle.items()), flush=True)
    for name, op in ops:
        result, took = measure(pids, op)
        parts = []
        for k, v in result.items():
            net = max(0, v - idle[k] / idle_s * took)
            parts.append(f"{k} {net / 1e6 / mb:.2f} MB/MB")
        print(f"{name} x{args.n} ({took:.1f} s): " + ", ".join(parts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
