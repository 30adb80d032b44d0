#!/usr/bin/env python3
"""`loupe dap` on large sessions: stepping through a 1M-event trace, paging a 100k-element collection.

A trace of N events of the typical mix (1,000,000 by default; 20,000 in smoke mode) is
generated, opened with `launch {"trace"}` (the wall and CPU time to index it are reported), and the view is
moved R times with each stepping request in turn (`next`, `stepIn`, `stepOut`, `stepBack`,
`goto` to a random event): the time from sending the request to reading its `stopped` event,
and the same plus what an editor asks at every stop (`threads`, `stackTrace`, `scopes`, and
the `State` scope's `variables`). Then a trace whose state holds a 100,000-element array: the
time of `variables` for one page of 100 elements (at the start, middle and end) against asking
for all of them at once. Output: JSON with the medians (milliseconds) and peak RSS of loupe.
"""

import json
import os
import random
import subprocess
import time

import benchlib


def extra(parser):
    parser.add_argument("--events", type=int, default=None, help="events in the trace (default 1,000,000; smoke 20,000)")
    parser.add_argument("--steps", type=int, default=None, help="moves of each kind (default 40; smoke 5)")


class Adapter:
    def __init__(self, loupe):
        self.proc = subprocess.Popen([loupe, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.seq = 0
        self.buffer = b""

    def send(self, command, arguments=None):
        self.seq += 1
        body = json.dumps({"seq": self.seq, "type": "request", "command": command, "arguments": arguments or {}}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return self.seq

    def read(self):
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += os.read(self.proc.stdout.fileno(), 1 << 16)
        header, rest = self.buffer.split(b"\r\n\r\n", 1)
        length = int(header.split(b":")[1])
        while len(rest) < length:
            rest += os.read(self.proc.stdout.fileno(), 1 << 16)
        self.buffer = rest[length:]
        return json.loads(rest[:length])

    def request(self, command, arguments=None):
        seq = self.send(command, arguments)
        while True:
            message = self.read()
            if message["type"] == "response" and message["request_seq"] == seq:
                if not message["success"]:
                    benchlib.fail(f"{command} failed: {message.get('message')}")
                return message.get("body") or {}

    def until(self, event):
        while True:
            message = self.read()
            if message["type"] == "event" and message["event"] == event:
                return message.get("body") or {}

    def peak_rss_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def cpu_seconds(self):
        with open(f"/proc/{self.proc.pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        self.request("disconnect")
        self.proc.stdin.close()
        self.proc.wait(60)


def open_trace(loupe, path):
    adapter = Adapter(loupe)
    adapter.request("initialize", {"adapterID": "loupe"})
    start = time.perf_counter()
    adapter.request("launch", {"trace": path, "stopOnEntry": True})
    opened = time.perf_counter() - start
    adapter.open_cpu = adapter.cpu_seconds()
    adapter.request("configurationDone")
    stop = adapter.until("stopped")
    return adapter, opened, stop


def what_an_editor_asks(adapter, thread):
    adapter.request("threads")
    frames = adapter.request("stackTrace", {"threadId": thread, "startFrame": 0, "levels": 20})["stackFrames"]
    if frames:
        scopes = adapter.request("scopes", {"frameId": frames[0]["id"]})["scopes"]
        if scopes:
            adapter.request("variables", {"variablesReference": scopes[0]["variablesReference"]})


def steps(loupe, trace, count, last_seq):
    adapter, opened, stop = open_trace(loupe, trace)
    rng = random.Random(7)
    # Start in the middle of the trace, on a page's action.
    adapter.request("goto", {"threadId": stop["threadId"], "targetId": last_seq // 2 + 1})
    stop = adapter.until("stopped")
    timings = {}
    for with_editor in (False, True):
        for command in ("next", "stepIn", "stepOut", "stepBack", "goto"):
            key = command + (" + editor requests" if with_editor else "")
            times = []
            for _ in range(count):
                arguments = {"threadId": stop["threadId"]}
                if command == "goto":
                    arguments["targetId"] = rng.randint(1, last_seq)
                start = time.perf_counter()
                adapter.request(command, arguments)
                stop = adapter.until("stopped")
                if with_editor:
                    what_an_editor_asks(adapter, stop["threadId"])
                times.append(time.perf_counter() - start)
            timings[key] = benchlib.median(times) * 1000
            timings[key + " (max)"] = max(times) * 1000
    rss = adapter.peak_rss_mb()
    cpu = adapter.open_cpu
    adapter.close()
    return opened, cpu, timings, rss


def paging(loupe, directory, elements):
    path = os.path.join(directory, "big.loupe")
    with open(path, "w") as handle:
        handle.write(json.dumps({"format": "loupe-trace", "version": 1, "program": "big", "pid": 1, "startedAt": "2026-01-01T00:00:00Z"}) + "\n")
        handle.write(json.dumps({"seq": 1, "time": 0, "kind": "action.received", "store": "Big#1", "action": "Big.Action.load", "value": "load", "origin": "send"}) + "\n")
        change = {"path": "items", "op": "replace", "old": [], "new": [{"id": i, "title": f"row {i}", "done": i % 2 == 0} for i in range(elements)]}
        handle.write(json.dumps({"seq": 2, "time": 1, "kind": "state.changed", "store": "Big#1", "cause": 1, "changes": [change], "summary": "Big#1: _items changed."}) + "\n")
    adapter, _, stop = open_trace(loupe, path)
    adapter.request("goto", {"threadId": stop["threadId"], "targetId": 2})
    stop = adapter.until("stopped")
    frame = adapter.request("stackTrace", {"threadId": stop["threadId"]})["stackFrames"][0]
    state = adapter.request("scopes", {"frameId": frame["id"]})["scopes"][0]
    items = adapter.request("variables", {"variablesReference": state["variablesReference"]})["variables"][0]
    reference = items["variablesReference"]
    pages = []
    for start in (0, elements // 2, elements - 100) * 5:
        begin = time.perf_counter()
        rows = adapter.request("variables", {"variablesReference": reference, "filter": "indexed", "start": start, "count": 100})["variables"]
        pages.append(time.perf_counter() - begin)
        assert len(rows) == 100 and rows[0]["name"] == f"[{start}]", rows[:1]
    whole = []
    for _ in range(3):
        begin = time.perf_counter()
        rows = adapter.request("variables", {"variablesReference": reference})["variables"]
        whole.append(time.perf_counter() - begin)
        assert len(rows) == elements
    adapter.close()
    return benchlib.median(pages) * 1000, benchlib.median(whole) * 1000


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 1_000_000)
    count = args.steps or (5 if args.smoke else 40)
    elements = 2_000 if args.smoke else 100_000
    with benchlib.scratch_directory() as directory:
        trace = os.path.join(directory, "mix.loupe")
        benchlib.run_timed([args.emit, "trace", "--events", str(events), trace])
        benchlib.log(f"  trace: {events:,} events, {os.path.getsize(trace) / 1e6:.0f} MB")
        opened, cpu, timings, rss = steps(args.loupe, trace, count, events)
        benchlib.log(f"  opened in {opened:.2f} s ({cpu:.2f} s of CPU); peak RSS {rss:.0f} MB")
        for key, value in timings.items():
            benchlib.log(f"  {key}: {value:.2f} ms")
        page, whole = paging(args.loupe, directory, elements)
        benchlib.log(f"  variables, 100 of {elements:,}: {page:.2f} ms; all at once: {whole:.1f} ms")
    benchlib.emit_result({
        "events": events, "steps": count, "openSeconds": opened, "openCPUSeconds": cpu, "stepMilliseconds": timings, "peakRSSMB": rss,
        "elements": elements, "pageMilliseconds": page, "wholeMilliseconds": whole, "machine": benchlib.machine(),
    })


if __name__ == "__main__":
    main()
