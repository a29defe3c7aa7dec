#!/usr/bin/env python3
"""Judges one provider route's run for bin/lib/test-agent-routes.sh (python3 stdlib only).

  routes_checks.py events FILE TOOL...
      FILE holds a run's SSE stream. Passes when its run events come in seq order as
      run_state running, then per TOOL a tool_call and its ok tool_result (in that order, nothing
      else), assistant_delta after the last result, run_state completed, and done (completed) last.
  routes_checks.py first-run FIXTURE_URL MODEL
      The fixture's chat requests for MODEL: the four scripted rounds in order, and the last one
      carried all three tool results, the ls result naming index.html.
  routes_checks.py follow-up FIXTURE_URL MODEL FIRST_MESSAGE SECOND_MESSAGE
      The follow-up run's first request carried the earlier conversation (first user message, the
      assistant's three tool calls with their results, its final answer) and then the new message;
      the run read index.html and answered.
  routes_checks.py keys FIXTURE_URL MODEL HEADER VALUE
      Every request for MODEL (model checks included) carried HEADER with exactly VALUE.
Each prints what it saw, so a failure's log says why.
"""
import json
import sys
import urllib.request

FIRST_STEPS = ["write", "ls", "preview", "answer"]
FOLLOW_UP_STEPS = ["follow-up read", "follow-up answer"]


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def sse_events(path):
    events, name, data = [], None, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f.read().split("\n"):
            line = line.rstrip("\r")
            if line == "":
                if data:
                    events.append((name, "\n".join(data)))
                name, data = None, []
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip(" "))
    if data:
        events.append((name, "\n".join(data)))
    return events


def check_events(path, tools):
    run_events = []
    for name, data in sse_events(path):
        if name == "snapshot":
            continue
        try:
            event = json.loads(data)
        except json.JSONDecodeError:
            fail("an event that is not JSON: %.200s" % data)
        run_events.append(event)
    summary = []
    for e in run_events:
        d = e.get("data") or {}
        summary.append(e.get("type") + ("(%s)" % (d.get("name") or d.get("state")) if d.get("name") or d.get("state") else ""))
    print("events: " + " ".join(summary))
    if not run_events:
        fail("no run events")
    seqs = [e.get("seq") for e in run_events]
    if seqs != sorted(seqs) or len(set(seqs)) != len(seqs):
        fail("seq not increasing: %s" % seqs)
    first, last = run_events[0], run_events[-1]
    if first.get("type") != "run_state" or first["data"].get("state") != "running":
        fail("the first event is not run_state running")
    if last.get("type") != "done" or last["data"].get("state") != "completed":
        fail("the last event is not done (completed): %s" % last)
    if len(run_events) < 2 or run_events[-2].get("type") != "run_state" or run_events[-2]["data"].get("state") != "completed":
        fail("run_state completed does not come right before done")
    tool_events = [(e["type"], e["data"]) for e in run_events if e.get("type") in ("tool_call", "tool_result")]
    want = []
    for tool in tools:
        want += [("tool_call", tool), ("tool_result", tool)]
    got = [(t, d.get("name")) for t, d in tool_events]
    if got != want:
        fail("tool events %s, expected %s" % (got, want))
    for t, d in tool_events:
        if t == "tool_result" and d.get("status") != "ok":
            fail("tool %s ended %s: %.300s" % (d.get("name"), d.get("status"), d.get("output")))
    last_result = max(i for i, e in enumerate(run_events) if e.get("type") == "tool_result")
    answer = "".join((e["data"].get("text") or e["data"].get("delta") or "") for e in run_events[last_result:]
                     if e.get("type") == "assistant_delta")
    if not any(e.get("type") == "assistant_delta" for e in run_events[last_result:]):
        fail("no assistant_delta after the last tool result")
    print("answer: " + answer)


def requests_of(fixture, model):
    with urllib.request.urlopen("%s/_requests?model=%s" % (fixture, model), timeout=10) as r:
        return json.load(r)


def chats(fixture, model):
    return [r for r in requests_of(fixture, model) if r.get("step") != "show"]


def check_first_run(fixture, model):
    rounds = chats(fixture, model)[:len(FIRST_STEPS)]
    steps = [r["step"] for r in rounds]
    print("first run rounds: %s" % steps)
    if steps != FIRST_STEPS:
        fail("expected %s" % FIRST_STEPS)
    results = [m for m in rounds[-1]["conversation"] if m["role"] == "tool"]
    print("last request's tool results: %s" % [m["text"][:80] for m in results])
    if len(results) != 3:
        fail("the last request carried %d tool results, not 3" % len(results))
    if "index.html" not in results[1]["text"]:
        fail("the ls result does not name index.html")


def check_follow_up(fixture, model, first_message, second_message):
    all_chats = chats(fixture, model)
    rounds = all_chats[len(FIRST_STEPS):]
    steps = [r["step"] for r in rounds]
    print("follow-up rounds: %s" % steps)
    if steps != FOLLOW_UP_STEPS:
        fail("expected %s" % FOLLOW_UP_STEPS)
    conversation = rounds[0]["conversation"]
    print("follow-up's first request: %s" % [(m["role"], m["text"][:40], m["calls"]) for m in conversation])
    users = [m["text"] for m in conversation if m["role"] == "user"]
    if users != [first_message, second_message]:
        fail("user messages %s" % users)
    calls = [c for m in conversation if m["role"] == "assistant" for c in m["calls"]]
    if calls != ["write_file", "run_command", "start_preview"]:
        fail("earlier tool calls %s" % calls)
    if sum(1 for m in conversation if m["role"] == "tool") != 3:
        fail("the earlier tool results are missing")
    answers = [m["text"] for m in conversation if m["role"] == "assistant" and not m["calls"]]
    if not answers or "ls listed: index.html" not in answers[-1]:
        fail("the earlier final answer is missing")
    if conversation[-1]["role"] != "user" or conversation[-1]["text"] != second_message:
        fail("the new message is not last")
    read = [m["text"] for m in rounds[-1]["conversation"] if m["role"] == "tool"][-1]
    if "Routes fixture page" not in read:
        fail("read_file index.html did not return the earlier page: %.200s" % read)


def check_keys(fixture, model, header, value):
    seen = [(r["path"], r["keyHeader"], r["key"]) for r in requests_of(fixture, model)]
    print("%d requests, key headers: %s" % (len(seen), sorted({h for _, h, _ in seen})))
    if not seen:
        fail("no requests")
    for path, h, key in seen:
        if h.lower() != header.lower() or key != value:
            fail("%s carried %s with another value" % (path, h))


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    command, args = argv[1], argv[2:]
    if command == "events":
        check_events(args[0], args[1:])
    elif command == "first-run":
        check_first_run(*args)
    elif command == "follow-up":
        check_follow_up(*args)
    elif command == "keys":
        check_keys(*args)
    else:
        fail("unknown command " + command)


if __name__ == "__main__":
    main(sys.argv)
