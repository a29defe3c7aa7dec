#!/usr/bin/env python3
"""Four model providers in one process, for the provider-route checks (bin/lib/test-agent-routes.sh).

python3 stdlib only. Each prefix speaks one provider's real streaming wire format:
  /ollama     POST /api/show (capabilities with "tools"), POST /api/chat (NDJSON, chunked)
  /openai/v1  POST /chat/completions (SSE chunks, tool-call arguments streamed as deltas, [DONE])
  /anthropic  POST /v1/messages (SSE events, tool_use blocks with input_json_delta fragments)
  /gemini     POST /v1beta/models/{model}:streamGenerateContent?alt=sse (SSE, functionCall parts)
Each refuses a request without its key header, as the real ones do (which key is right is the
check's business: the fixture records what arrived).

Models whose name starts with "routes-" follow one script, decided from the request's own
messages (never a global counter). A conversation with one user message is a first run:
  0 tool results since that message -> write_file index.html
  1 -> run_command ls,  2 -> start_preview,  3 -> a final answer naming what ls listed.
A later user message (a follow-up run): read_file index.html, then an answer quoting its title.
Without tools offered (a handoff) the answer is plain text. Any other model is "not found".
Tool-call ids are unique per call, as the real APIs make them (task-service refuses a second
result for an id the run already answered).

GET /_requests[?model=M] lists every request received (prefix, path, model, the key header,
the conversation folded to {role, text, calls, tool}, whether tools were offered, the step).
"""
import argparse
import json
import re
import threading
import urllib.parse
import uuid
from http.server import ThreadingHTTPServer

from fixture_http import FixtureHandler

PAGE_TITLE = "Routes fixture page"
PAGE = "<!doctype html>\n<title>%s</title>\n<h1>Written by the routes fixture model</h1>\n" % PAGE_TITLE
KEY_HEADERS = {"ollama": "Authorization", "openai": "Authorization", "anthropic": "x-api-key", "gemini": "x-goog-api-key"}

RECEIVED = []
RECEIVED_LOCK = threading.Lock()


# --- the conversation, folded the same way for every wire format ----------------------------

def fold_openai_like(messages):
    """Ollama and OpenAI: role-per-message lists."""
    out = []
    for m in messages:
        role = m.get("role")
        if role == "system":
            continue
        calls = [c.get("function", {}).get("name", "") for c in (m.get("tool_calls") or [])]
        out.append({"role": role, "text": text_of(m.get("content")), "calls": calls})
    return out


def fold_anthropic(messages):
    out = []
    for m in messages:
        content = m.get("content")
        if isinstance(content, str):
            out.append({"role": m.get("role"), "text": content, "calls": []})
            continue
        texts, calls = [], []
        for block in content or []:
            kind = block.get("type")
            if kind == "text":
                texts.append(block.get("text", ""))
            elif kind == "tool_use":
                calls.append(block.get("name", ""))
            elif kind == "tool_result":
                out.append({"role": "tool", "text": text_of(block.get("content")), "calls": []})
        if texts or calls:
            out.append({"role": m.get("role"), "text": "".join(texts), "calls": calls})
    return out


def fold_gemini(contents):
    out = []
    for c in contents:
        role = "assistant" if c.get("role") == "model" else "user"
        texts, calls = [], []
        for part in c.get("parts") or []:
            if "functionCall" in part:
                calls.append(part["functionCall"].get("name", ""))
            elif "functionResponse" in part:
                response = part["functionResponse"].get("response") or {}
                out.append({"role": "tool", "text": text_of(response.get("result", response)), "calls": []})
            elif "text" in part:
                texts.append(part["text"])
        if texts or calls:
            out.append({"role": role, "text": "".join(texts), "calls": calls})
    return out


def text_of(value):
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # Anthropic content blocks inside a tool_result
        return "".join(b.get("text", "") for b in value if isinstance(b, dict))
    return json.dumps(value)


# --- the script ------------------------------------------------------------------------------

def script(conversation, tools_offered):
    """(step, text, [(name, arguments)]) for the next answer of this conversation."""
    users = [i for i, m in enumerate(conversation) if m["role"] == "user"]
    if not tools_offered:
        return "handoff", "Handoff from the routes fixture: nothing is left to do.", []
    last_user = users[-1] if users else -1
    results = [m for m in conversation[last_user + 1:] if m["role"] == "tool"]
    if len(users) > 1:  # a follow-up run: it must see the earlier files
        if not results:
            return "follow-up read", "I will look at the page from before.", [("read_file", {"path": "index.html"})]
        title = re.search(r"<title>([^<]*)</title>", results[-1]["text"])
        return "follow-up answer", "The earlier page is still there, titled: %s." % (title.group(1) if title else "nothing"), []
    step = len(results)
    if step == 0:
        return "write", "I will write the page first.", [("write_file", {"path": "index.html", "content": PAGE})]
    if step == 1:
        return "ls", "Now I list the workspace.", [("run_command", {"command": "ls"})]
    if step == 2:
        return "preview", "Starting the preview.", [("start_preview", {})]
    listed = listing(results[1]["text"])
    return "answer", "Done. ls listed: %s. The preview serves index.html." % (", ".join(listed) or "nothing"), []


def listing(tool_output):
    """File names from the ls tool result ("exit code 0\\nstdout:\\n...")."""
    lines = tool_output.split("\n")
    if "stdout:" in lines:
        lines = lines[lines.index("stdout:") + 1:]
    return [l.strip() for l in lines if l.strip() and not l.startswith(("stderr:", "exit code", "["))]


def pieces(text):
    if len(text) < 6:
        return [text] if text else []
    third = len(text) // 3
    return [text[:third], text[third:2 * third], text[2 * third:]]


def halves(text):
    half = len(text) // 2
    return [text[:half], text[half:]]


# --- HTTP --------------------------------------------------------------------------------------

class Handler(FixtureHandler):
    log_prefix = "routes-fixture"

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/_requests":
            model = urllib.parse.parse_qs(url.query).get("model", [None])[0]
            with RECEIVED_LOCK:
                self.answer(200, [r for r in RECEIVED if model is None or r["model"] == model])
        elif url.path in ("/", "/ollama", "/ollama/api/version"):
            self.answer(200, {"version": "0.0.0-routes-fixture"})
        else:
            self.answer(404, {"error": "not found"})

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        try:
            body = self.body()
        except ValueError:
            self.answer(400, {"error": "invalid request"})
            return
        prefix, _, rest = url.path.lstrip("/").partition("/")
        route = {
            ("ollama", "api/show"): self.ollama_show,
            ("ollama", "api/chat"): self.ollama_chat,
            ("openai", "v1/chat/completions"): self.openai,
            ("anthropic", "v1/messages"): self.anthropic,
        }.get((prefix, rest))
        model = body.get("model", "")
        if prefix == "gemini" and rest.startswith("v1beta/models/") and rest.endswith(":streamGenerateContent"):
            model = urllib.parse.unquote(rest[len("v1beta/models/"):-len(":streamGenerateContent")])
            route = self.gemini if urllib.parse.parse_qs(url.query).get("alt") == ["sse"] else None
        if route is None:
            self.answer(404, {"error": "not found"})
            return
        key = self.headers.get(KEY_HEADERS[prefix])
        if not key:
            self.answer(401, {"error": {"message": "missing credentials"}})
            return
        if not str(model).startswith("routes-"):
            self.answer(404, {"error": {"message": "model '%s' not found" % model}})
            return
        if prefix == "anthropic" and not self.headers.get("anthropic-version"):
            self.answer(400, {"type": "error", "error": {"type": "invalid_request_error", "message": "anthropic-version"}})
            return
        route(body, model, {"prefix": prefix, "path": url.path, "model": model, "keyHeader": KEY_HEADERS[prefix], "key": key})

    def record(self, seen, conversation, tools_offered, step):
        seen.update(conversation=conversation, toolsOffered=tools_offered, step=step)
        with RECEIVED_LOCK:
            RECEIVED.append(seen)

    # Ollama /api/show and /api/chat (NDJSON)
    def ollama_show(self, body, model, seen):
        self.record(seen, [], False, "show")
        self.answer(200, {"modelfile": "", "capabilities": ["completion", "tools"]})

    def ollama_chat(self, body, model, seen):
        conversation = fold_openai_like(body.get("messages") or [])
        tools = bool(body.get("tools"))
        step, text, calls = script(conversation, tools)
        self.record(seen, conversation, tools, step)
        self.start_stream("application/x-ndjson")
        base = {"model": model, "created_at": "2026-01-01T00:00:00Z", "done": False}
        for piece in pieces(text):
            self.line(dict(base, message={"role": "assistant", "content": piece}))
        if calls:
            tool_calls = [{"function": {"name": n, "arguments": a}} for n, a in calls]
            self.line(dict(base, message={"role": "assistant", "content": "", "tool_calls": tool_calls}))
        self.line(dict(base, message={"role": "assistant", "content": ""}, done=True, done_reason="stop",
                       prompt_eval_count=100, eval_count=20))
        self.end_stream()

    # OpenAI chat completions (SSE)
    def openai(self, body, model, seen):
        conversation = fold_openai_like(body.get("messages") or [])
        tools = bool(body.get("tools"))
        step, text, calls = script(conversation, tools)
        self.record(seen, conversation, tools, step)
        self.start_stream("text/event-stream")

        def data(delta, finish=None):
            choice = {"index": 0, "delta": delta, "finish_reason": finish}
            self.chunk("data: " + json.dumps({"id": "chatcmpl-routes", "object": "chat.completion.chunk",
                                              "model": model, "choices": [choice]}) + "\n\n")

        data({"role": "assistant", "content": ""})
        for piece in pieces(text):
            data({"content": piece})
        for i, (name, arguments) in enumerate(calls):
            first, second = halves(json.dumps(arguments))
            data({"tool_calls": [{"index": i, "id": "call_" + uuid.uuid4().hex[:24], "type": "function",
                                  "function": {"name": name, "arguments": first}}]})
            data({"tool_calls": [{"index": i, "function": {"arguments": second}}]})
        data({}, "tool_calls" if calls else "stop")
        self.chunk("data: " + json.dumps({"id": "chatcmpl-routes", "object": "chat.completion.chunk", "choices": [],
                                          "usage": {"prompt_tokens": 100, "completion_tokens": 20,
                                                    "total_tokens": 120}}) + "\n\n")
        self.chunk("data: [DONE]\n\n")
        self.end_stream()

    # Anthropic messages (SSE events)
    def anthropic(self, body, model, seen):
        conversation = fold_anthropic(body.get("messages") or [])
        tools = bool(body.get("tools"))
        step, text, calls = script(conversation, tools)
        self.record(seen, conversation, tools, step)
        self.start_stream("text/event-stream")

        def event(name, payload):
            payload = dict(payload, type=name)
            self.chunk("event: %s\ndata: %s\n\n" % (name, json.dumps(payload)))

        event("message_start", {"message": {"id": "msg_routes", "type": "message", "role": "assistant", "content": [],
                                            "model": model, "stop_reason": None,
                                            "usage": {"input_tokens": 100, "output_tokens": 1}}})
        index = 0
        if text:
            event("content_block_start", {"index": index, "content_block": {"type": "text", "text": ""}})
            for piece in pieces(text):
                event("content_block_delta", {"index": index, "delta": {"type": "text_delta", "text": piece}})
            event("content_block_stop", {"index": index})
            index += 1
        event("ping", {})
        for name, arguments in calls:
            event("content_block_start", {"index": index, "content_block": {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:24],
                                                                            "name": name, "input": {}}})
            for half in halves(json.dumps(arguments)):
                event("content_block_delta", {"index": index, "delta": {"type": "input_json_delta", "partial_json": half}})
            event("content_block_stop", {"index": index})
            index += 1
        event("message_delta", {"delta": {"stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None},
                                "usage": {"output_tokens": 20}})
        event("message_stop", {})
        self.end_stream()

    # Gemini streamGenerateContent (SSE)
    def gemini(self, body, model, seen):
        conversation = fold_gemini(body.get("contents") or [])
        tools = bool(body.get("tools"))
        step, text, calls = script(conversation, tools)
        self.record(seen, conversation, tools, step)
        self.start_stream("text/event-stream")

        def data(parts, finish=None):
            candidate = {"content": {"role": "model", "parts": parts}, "index": 0}
            chunk = {"candidates": [candidate], "modelVersion": model}
            if finish:
                candidate["finishReason"] = finish
                chunk["usageMetadata"] = {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120}
            self.chunk("data: " + json.dumps(chunk) + "\r\n\r\n")

        for piece in pieces(text):
            data([{"text": piece}])
        data([{"functionCall": {"name": n, "args": a}} for n, a in calls], "STOP")
        self.end_stream()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=18498)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
