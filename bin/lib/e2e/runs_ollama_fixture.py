#!/usr/bin/env python3
"""A tiny model server for the runner-crash check (bin/lib/test-runs.sh), python3 stdlib only.

Speaks what agent-runner's Ollama adapter uses: POST /api/show (capabilities with "tools") and
POST /api/chat streaming NDJSON. Models whose name starts with "runs-" follow one script, chosen
by how many tool results the conversation already holds:
  0 -> write_file notes.txt,  1 -> run_command "sleep 120",  then -> a short final answer.
Any other model is "not found" (404), as a real Ollama answers.
"""
import argparse
import json
from http.server import ThreadingHTTPServer

from fixture_http import FixtureHandler

NOTES = "Notes written by the runs fixture model.\n"


def script(messages):
    done = sum(1 for m in messages if m.get("role") == "tool")
    if done == 0:
        return "I will write the notes first.", [{"function": {"name": "write_file",
                                                              "arguments": {"path": "notes.txt", "content": NOTES}}}]
    if done == 1:
        return "Now the long job.", [{"function": {"name": "run_command",
                                                   "arguments": {"command": "sleep 120", "timeout_seconds": 300}}}]
    return "All done: notes.txt is written.", []


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
        if not model.startswith("runs-"):
            self.answer(404, {"error": "model '%s' not found" % model})
            return
        if self.path == "/api/show":
            self.answer(200, {"modelfile": "", "capabilities": ["completion", "tools"]})
            return
        if self.path != "/api/chat":
            self.answer(404, {"error": "not found"})
            return
        text, calls = script(request.get("messages") or [])
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
    parser.add_argument("--port", type=int, default=18499)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
