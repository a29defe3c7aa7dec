#!/usr/bin/env python3
"""A tiny model server for the run checks (bin/lib/test-runs.sh, bin/lib/test-lifecycle.sh), python3 stdlib only.

Speaks what agent-runner's Ollama adapter uses: POST /api/show (capabilities with "tools") and
POST /api/chat streaming NDJSON. A model follows the script of its name's prefix, one step per tool
result the conversation already holds, then a short final answer:
  runs-     write_file notes.txt, run_command "sleep 120" (timeout 300 s)
  life-     write_file result.txt ("made by <model>")
  slow-     run_command "sleep 5", write_file result.txt
  preview-  write_file index.html, start_preview
  webapp-   write_file index.html and server.py (a page and a WebSocket echo, preview_webapp.py), start_preview
  timeout-  run_command "sleep 10" (no timeout of its own: the deployment's applies)
  net-      run_command "ls /sys/class/net > net.txt" (which interfaces the sandbox has), in every run
  fault-    twelve rounds of run_command "sleep 2" and write_file step<N>.txt (a run that spans service kills)
Any other model is "not found" (404), as a real Ollama answers.
"""
import argparse
import json
from http.server import ThreadingHTTPServer

from fixture_http import FixtureHandler
import preview_webapp

NOTES = "Notes written by the runs fixture model.\n"


def write(path, content):
    return {"function": {"name": "write_file", "arguments": {"path": path, "content": content}}}


def command(line, timeout=None):
    arguments = {"command": line}
    if timeout is not None:
        arguments["timeout_seconds"] = timeout
    return {"function": {"name": "run_command", "arguments": arguments}}


def steps(model):
    prefix = model.split("-", 1)[0] + "-"
    return {
        "runs-": [write("notes.txt", NOTES), command("sleep 120", 300)],
        "life-": [write("result.txt", "made by %s\n" % model)],
        "slow-": [command("sleep 5"), write("result.txt", "made by %s\n" % model)],
        "preview-": [write("index.html", "<h1>%s</h1>\n" % model), {"function": {"name": "start_preview", "arguments": {}}}],
        "webapp-": [write("index.html", preview_webapp.INDEX_HTML), write("server.py", preview_webapp.server_source()),
                    {"function": {"name": "start_preview", "arguments": {"command": "python3 server.py"}}}],
        "timeout-": [command("sleep 10")],
        "net-": [command("ls /sys/class/net > /workspace/net.txt")],
        "fault-": [step for n in range(1, 13) for step in (command("sleep 2"), write("step%d.txt" % n, "step %d\n" % n))],
    }.get(prefix)


def script(model, messages):
    if model.startswith(("fault-", "net-")):  # each run of the conversation plays the whole script again
        last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
        messages = messages[last_user + 1:]
    done = sum(1 for m in messages if m.get("role") == "tool")
    planned = steps(model)
    if done < len(planned):
        return "Step %d." % (done + 1), [planned[done]]
    return "All done.", []


class Handler(FixtureHandler):
    log_prefix = "runs-fixture"

    def do_GET(self):
        if self.path in ("/", "/api/version"):
            self.answer(200, {"version": "0.0.0-fixture"})
        elif self.path == "/api/tags":
            self.answer(200, {"models": [{"name": "runs-crash"}]})
        else:
            self.answer(404, {"error": "not found"})

    def do_POST(self):
        try:
            request = self.body()
        except ValueError:
            self.answer(400, {"error": "invalid request"})
            return
        model = str(request.get("model", ""))
        if steps(model) is None:
            self.answer(404, {"error": "model '%s' not found" % model})
            return
        if self.path == "/api/show":
            self.answer(200, {"modelfile": "", "capabilities": ["completion", "tools"]})
            return
        if self.path != "/api/chat":
            self.answer(404, {"error": "not found"})
            return
        text, calls = script(model, request.get("messages") or [])
        if not request.get("tools"):
            calls = []
        self.start_stream("application/x-ndjson")
        base = {"model": model, "created_at": "2026-01-01T00:00:00Z", "done": False}
        self.line(dict(base, message={"role": "assistant", "content": text}))
        if calls:
            self.line(dict(base, message={"role": "assistant", "content": "", "tool_calls": calls}))
        self.line(dict(base, message={"role": "assistant", "content": ""}, done=True, done_reason="stop",
                        prompt_eval_count=100, eval_count=20))
        self.end_stream()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (the compose check uses the Docker bridge's)")
    parser.add_argument("--port", type=int, default=18499)
    args = parser.parse_args()
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
