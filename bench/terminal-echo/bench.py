"""Interactive terminal through the gateway's origin vs. a raw `docker exec -it` into the same sandbox
(issue 20): keystroke-to-echo round trip p50/p99 (a raw-mode `cat` echoing one byte at a time) and
bulk output throughput (`head -c 50M /dev/zero | base64`). Python 3 stdlib; docker CLI for the baseline.

    bench.py URL KEY OUT [--instance NAME] [--keys 500] [--warmup 3000]

The warm-up is long because the path's Java hops are compiled only after a few thousand keystrokes:
with 200, the first run after a stack's start measured the JIT (p99 11.9-12.4 ms, warm runs 6.2-9.5).
OUT's sections from its first "## " on are kept; the top is rewritten.
"""
import argparse
import datetime
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bin", "lib", "e2e"))
sys.path.insert(0, os.path.join(HERE, "..", "terminal-server"))
from ws_client import WebSocket  # noqa: E402
from bench import home_container, pct  # noqa: E402  (bench/terminal-server)

USER = "bench/terminal-echo"
BULK = b"head -c 50M /dev/zero | base64; echo BULK$((40+2))END\r"
BULK_MARK = re.compile(rb"BULK42END")


class GatewayTerminal:
    def __init__(self, url, key):
        for attempt in range(4):  # a cold stack's first home sandbox may take longer than the gateway waits
            req = urllib.request.Request(url + "/api/open-terminal/api/terminals", method="POST",
                                         headers={"Authorization": "Bearer " + key, "X-User-Id": USER})
            try:
                with urllib.request.urlopen(req, timeout=120) as r:
                    self.id = json.loads(r.read())["id"]
                break
            except urllib.error.HTTPError as e:
                if e.code < 500 or attempt == 3:
                    raise
        self.ws = WebSocket(url.replace("http://", "ws://") + "/api/open-terminal/api/terminals/" + self.id)
        self.ws.send_text(json.dumps({"type": "auth", "token": key}))

    def write(self, data):
        self.ws.send_binary(data)

    def read(self):
        return self.ws.recv()[1]

    def close(self):
        self.ws.close()


class ExecTerminal:
    """`docker exec -it` on a local pty, as a person at a terminal would run it."""

    def __init__(self, container):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvp("docker", ["docker", "exec", "-it", "-u", "1000:1000", "-w", "/home/user", container, "bash"])
        time.sleep(0.5)
        # The local pty must pass bytes through untouched: docker's own pty in the sandbox does the work.
        import tty
        tty.setraw(self.fd)

    def write(self, data):
        os.write(self.fd, data)

    def read(self):
        select.select([self.fd], [], [], 30)
        return os.read(self.fd, 1 << 20)

    def close(self):
        try:
            os.write(self.fd, b"\x03exit\r")
            os.close(self.fd)
            os.waitpid(self.pid, 0)
        except OSError:
            pass


# The pty alone, inside the sandbox: the same work on a pseudo-terminal read as fast as a local
# program can (python3 in the sandbox), with no channel out of it. The ceiling for any terminal path.
PTY_ALONE = r"""
import os, pty, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("bash", ["bash", "-c", "head -c 50M /dev/zero | base64"])
n, t = 0, time.perf_counter()
while True:
    try:
        b = os.read(fd, 1 << 20)
    except OSError:
        break
    if not b:
        break
    n += len(b)
print(n, time.perf_counter() - t)
"""


def pty_alone(container):
    out = subprocess.run(["docker", "exec", "-u", "1000:1000", container, "python3", "-c", PTY_ALONE],
                         check=True, capture_output=True, text=True, timeout=600).stdout.split()
    return int(out[0]) / float(out[1]) / 1e6


def exec_pipe(container):
    """`docker exec` without -t: the same output through docker's stream, no pty anywhere."""
    started = time.perf_counter()
    proc = subprocess.Popen(["docker", "exec", "-u", "1000:1000", container, "bash", "-c",
                             "head -c 50M /dev/zero | base64"], stdout=subprocess.PIPE)
    size = 0
    while True:
        chunk = proc.stdout.read1(1 << 20)
        if not chunk:
            break
        size += len(chunk)
    proc.wait()
    return size / (time.perf_counter() - started) / 1e6


def read_until(term, regex, timeout=120):
    seen, tail, end = bytearray(), 0, time.monotonic() + timeout
    while not regex.search(seen, tail):
        tail = max(0, len(seen) - 64)
        if time.monotonic() > end:
            raise SystemExit(f"no {regex.pattern!r}; last output {bytes(seen[-200:])!r}")
        seen += term.read()
    return len(seen)


def echo_samples(term, keys, warmup):
    term.write(b"stty raw -echo; echo CAT$((1+1)); exec cat\r")
    read_until(term, re.compile(rb"CAT2"))
    time.sleep(0.3)
    samples = []
    for i in range(warmup + keys):
        started = time.perf_counter()
        term.write(b"x")
        got = b""
        while b"x" not in got:
            got += term.read()
        if i >= warmup:
            samples.append((time.perf_counter() - started) * 1000)
    return samples


def bulk(term):
    term.write(b"echo READY$((1+1))\r")
    read_until(term, re.compile(rb"READY2"))
    started = time.perf_counter()
    term.write(BULK)
    size = read_until(term, BULK_MARK, timeout=600)
    took = time.perf_counter() - started
    return size / took / 1e6, size, took


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("key")
    ap.add_argument("out")
    ap.add_argument("--instance")
    ap.add_argument("--keys", type=int, default=500)
    ap.add_argument("--warmup", type=int, default=3000)
    a = ap.parse_args()
    url = a.url.rstrip("/")
    rows = []
    gw = GatewayTerminal(url, a.key)
    gw_echo = echo_samples(gw, a.keys, a.warmup)
    gw.close()
    gw = GatewayTerminal(url, a.key)
    gw_bulk = bulk(gw)
    gw.close()
    container = home_container(USER, a.instance)
    ex = ExecTerminal(container)
    ex_echo = echo_samples(ex, a.keys, min(a.warmup, 50))
    ex.close()
    ex = ExecTerminal(container)
    ex_bulk = bulk(ex)
    ex.close()
    pipe_mbs = exec_pipe(container)
    alone_mbs = pty_alone(container)
    load = open("/proc/loadavg").read().split()[:3]
    rows.append(("keystroke → echo p50 (ms)", pct(gw_echo, 50), pct(ex_echo, 50)))
    rows.append(("keystroke → echo p99 (ms)", pct(gw_echo, 99), pct(ex_echo, 99)))
    rows.append(("bulk `head -c 50M /dev/zero | base64` (MB/s)", gw_bulk[0], ex_bulk[0]))
    lines = [
        "# terminal-echo", "",
        "%s; load average %s (2 shared cores); %d keystrokes (after %d warm-up) into a raw-mode `cat`, one at a time;"
        % (datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), " ".join(load), a.keys, a.warmup),
        "bulk: %.1f MB of output (base64 and the pty's CRLF) read as fast as the client can. Gateway: the Open Terminal"
        " WebSocket on the gateway's origin (gateway → terminal-service → NATS → sandbox-service → celld → pty)."
        " Baseline: `docker exec -it` into the same home sandbox on a local pty. Run: `bench/terminal-echo/run.sh`."
        % (gw_bulk[1] / 1e6), "",
        "| measure | gateway | `docker exec -it` | ratio gateway/exec |", "|---|---:|---:|---:|"]
    for name, g, e in rows:
        lines.append("| %s | %.2f | %.2f | %.2f |" % (name, g, e, g / e if e else float("nan")))
    lines += ["", "Bulk baselines in the same run: `docker exec` without -t (docker's stream, no pty anywhere): "
              "%.2f MB/s; the pty alone inside the sandbox (the same command on a pseudo-terminal read by a local "
              "python3, nothing leaving the sandbox): %.2f MB/s — the ceiling of every terminal path here; gateway / pty "
              "alone: %.2f." % (pipe_mbs, alone_mbs, gw_bulk[0] / alone_mbs),
              "", "Goals (issue 20): echo p50 ≤ 3 ms, p99 ≤ 10 ms; bulk ≥ 50 MB/s."]
    text = "\n".join(lines) + "\n"
    kept = ""
    if os.path.exists(a.out):
        old = open(a.out).read()
        at = old.find("\n## ")
        kept = old[at:] if at >= 0 else ""
    with open(a.out, "w") as f:
        f.write(text + kept)
    print(text)


if __name__ == "__main__":
    main()
