#!/usr/bin/env python3
"""How late the program's own timer fires while clients misbehave, as a well-behaved client
sees it; and what 500 idle connections cost the program in memory.

The program is `loupe-examples probe` serving on a Unix socket, with 20,000 events of
history, ticking its store every 10 ms on a fixed schedule (`probe:ticker 10`). A watcher
client subscribes to its `state.changed` events and reads each tick's `time` (stamped by
the program's thread as the tick is processed) and the count it set: the lateness of the tick
that set count n is `time_n - time_first - (n - n_first) × 10 ms`, corrected for the smallest
lateness seen (the schedule's own offset). The count, not the order of arrival, numbers the
ticks, so a tick the watcher lost (reported as `dropped`) shifts nothing. For each pattern the script records the worst lateness over the pattern's window
(3 s, or as long as the pattern lasts) and reports the worst *extra* delay: that worst minus
the worst of the same window length with no hostile client.

Patterns, each from a fresh connection (the first is the baseline):

- none: nobody but the watcher;
- big-filters-history: one `loupe/subscribe` with a 10,000-glob filter and `history: true`
  (the issue's case; refused now, -32602), then 200 pipelined `loupe/subscribe` with
  1,000-glob filters (the most a filter may hold) and `history: true`, answers read;
- pipelined-subscribes: 10,000 pipelined `loupe/subscribe {history: true}`, then the client
  leaves without reading;
- idle-500: 500 connections that never send a byte (the program runs with
  LOUPE_MAX_CLIENTS=600 so all are served), held for the window, then closed; the program's
  resident memory before, with them, and after they left (`probe:rss`);
- huge-batch: one frame holding 100,000 `loupe/stores` requests, answers read;
- non-reading: a client subscribes with history and never reads again (a stalled client);
- garbage: 100 connections, each sending something broken (random bytes, a header without
  `Content-Length`, a `Content-Length` over the size limit, 1,000 frames of invalid JSON, a
  frame cut short), and one connection sending 10,000 well-framed invalid requests whose
  error answers it reads.

Prints a table on stderr and one JSON object on stdout. No timing threshold is checked here
(BENCHMARKS.md holds the numbers of a real run); `--smoke` only checks that it all runs.
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

PERIOD_MS = 10.0


def frame(message):
    body = json.dumps(message, separators=(",", ":")).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(id, method, params=None):
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return message


class Reader:
    """Reads frames from a socket on a thread of its own."""

    def __init__(self, sock, on_message):
        self.sock = sock
        self.on_message = on_message
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(1 << 20)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while True:
                head, sep, rest = buffer.partition(b"\r\n\r\n")
                if not sep:
                    break
                length = int(head.split(b":")[1])
                if len(rest) < length:
                    break
                body, buffer = rest[:length], rest[length:]
                self.on_message(json.loads(body))


def connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    return sock


class Watcher:
    """The well-behaved client: tick times, and the answers to its own requests."""

    def __init__(self, path):
        self.sock = connect(path)
        self.ticks = []  # (arrival monotonic s, program time ms, count)
        self.dropped = 0
        self.answers = {}
        self.marks = []
        self.lock = threading.Condition()
        Reader(self.sock, self.receive)
        self.call(request(1, "initialize", {"clientInfo": {"name": "watcher"}}))
        self.call(request(2, "loupe/subscribe", {"filter": {"kinds": ["state.changed", "mark"]}}))

    def receive(self, message):
        with self.lock:
            if message.get("method") == "loupe/events":
                for event in message["params"]["events"]:
                    if event["kind"] == "state.changed":
                        count = next((c.get("new") for c in event["changes"] if c["path"] == "count"), None)
                        if isinstance(count, int):
                            self.ticks.append((time.monotonic(), event["time"], count))
                    elif event["kind"] == "dropped":
                        self.dropped += event["count"]
                    elif event["kind"] == "mark":
                        self.marks.append(event["label"])
            elif "id" in message:
                self.answers[message["id"]] = message
            self.lock.notify_all()

    def call(self, message, timeout=60):
        self.sock.sendall(frame(message))
        with self.lock:
            self.lock.wait_for(lambda: message["id"] in self.answers, timeout)
            return self.answers.get(message["id"])

    def mark(self, label, reply_prefix, timeout=60):
        count = len(self.marks)
        self.call(request("m" + label + str(time.monotonic()), "loupe/mark", {"label": label}))
        with self.lock:
            self.lock.wait_for(lambda: any(m.startswith(reply_prefix) for m in self.marks[count:]), timeout)
            return next((m for m in self.marks[count:] if m.startswith(reply_prefix)), "")

    def rss_kb(self):
        return int(self.mark("probe:rss", "probe:rss kB=").split("=")[1] or 0)

    def worst_lateness(self, start, end):
        """Worst lateness (ms) of the ticks that arrived between `start` and `end`."""
        with self.lock:
            ticks = list(self.ticks)
        if len(ticks) < 2:
            return None
        origin, first = ticks[0][1], ticks[0][2]
        lateness = [(arrival, t - origin - (n - first) * PERIOD_MS) for arrival, t, n in ticks]
        floor = min(l for _, l in lateness)
        window = [l - floor for arrival, l in lateness if start <= arrival <= end]
        return max(window) if window else None


def big_filters(path, smoke):
    sock = connect(path)
    received = threading.Semaphore(0)
    Reader(sock, lambda message: received.release() if "id" in message else None)
    globs = ["Kind%d.*" % i for i in range(1000)]
    count = 20 if smoke else 200
    huge = ["Kind%d.*" % i for i in range(10000)]
    payload = frame(request(0, "initialize", {}))
    payload += frame(request("huge", "loupe/subscribe", {"filter": {"kinds": huge}, "history": True}))
    payload += b"".join(frame(request(i + 1, "loupe/subscribe", {"filter": {"kinds": globs}, "history": True}))
                        for i in range(count))
    start = time.monotonic()
    sock.sendall(payload)
    deadline = start + 600
    answered = sum(1 for _ in range(count + 2) if received.acquire(timeout=max(0, deadline - time.monotonic())))
    sock.close()
    return {"answered": answered, "of": count + 2, "answers_s": round(time.monotonic() - start, 1)}


def pipelined_subscribes(path, smoke):
    sock = connect(path)
    count = 1000 if smoke else 10000
    payload = frame(request(0, "initialize", {}))
    payload += b"".join(frame(request(i + 1, "loupe/subscribe", {"history": True})) for i in range(count))
    threading.Thread(target=lambda: (sock.sendall(payload), sock.close()), daemon=True).start()
    time.sleep(3)


def huge_batch(path, smoke):
    sock = connect(path)
    done = threading.Event()
    Reader(sock, lambda message: done.set() if isinstance(message, list) else None)
    count = 10000 if smoke else 100000
    batch = [request(i, "loupe/stores") for i in range(count)]
    body = json.dumps(batch, separators=(",", ":")).encode()
    sock.sendall(frame(request("init", "initialize", {})) + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    done.wait(120)
    sock.close()
    return done.is_set()


def non_reading(path, smoke):
    sock = connect(path)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(frame(request(0, "initialize", {})) + frame(request(1, "loupe/subscribe", {"history": True})))
    time.sleep(3)
    sock.close()


def garbage(path, smoke):
    """Broken input on many connections at once; returns how many error answers came back on
    the connection that sent well-framed invalid requests."""
    import random
    rng = random.Random(16)
    senders = []
    kinds = [
        lambda: bytes(rng.getrandbits(8) for _ in range(4096)),
        lambda: b"Content-Type: application/json\r\n\r\n{}",
        lambda: b"Content-Length: 999999999999\r\n\r\n{",
        lambda: b"".join(frame_bytes(b"{not json") for _ in range(1000)),
        lambda: b"Content-Length: 100\r\n\r\n{\"jsonrpc\"",
    ]

    def send(data):
        try:
            sock = connect(path)
            sock.sendall(data)
            sock.settimeout(5)
            try:
                while sock.recv(1 << 16):
                    pass
            except OSError:
                pass
            sock.close()
        except OSError:
            pass

    for i in range(20 if smoke else 100):
        thread = threading.Thread(target=send, args=(kinds[i % len(kinds)](),), daemon=True)
        thread.start()
        senders.append(thread)

    sock = connect(path)
    answers = threading.Semaphore(0)
    count = 1000 if smoke else 10000
    Reader(sock, lambda message: answers.release() if "error" in message else None)
    payload = frame(request(0, "initialize", {}))
    payload += b"".join(frame({"jsonrpc": "2.0", "id": i + 1, "method": 7}) for i in range(count))
    sock.sendall(payload)
    got = sum(1 for _ in range(count) if answers.acquire(timeout=60))
    sock.close()
    for thread in senders:
        thread.join(10)
    return {"error_answers": got, "of": count}


def frame_bytes(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.join(here, "..", "..")
    parser.add_argument("--examples", default=None, help="loupe-examples to run (default: the main package's release, else debug build)")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated patterns to run (the baseline always runs)")
    parser.add_argument("--nice", type=int, default=0,
                        help="run the program at this niceness (e.g. -10, as root): other processes' load then disturbs its timer less")
    args = parser.parse_args()
    examples = args.examples or next(
        (p for p in (os.path.join(root, ".build", c, "loupe-examples") for c in ("release", "debug")) if os.access(p, os.X_OK)), None)
    if not examples:
        print(json.dumps({"error": "build loupe-examples first: swift build -c release --product loupe-examples"}))
        sys.exit(1)

    directory = tempfile.mkdtemp(prefix="loupe-jitter-")
    path = os.path.join(directory, "probe.sock")
    env = dict(os.environ, LOUPE="unix:" + path, LOUPE_MAX_CLIENTS="600")
    env.pop("LOUPE_RECORD", None)
    prefix = ["nice", "-n", str(args.nice)] if args.nice else []
    program = subprocess.Popen(prefix + [examples, "probe", "--hold", "--seconds", "600", "--burst", "10000"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    try:
        while True:
            line = program.stdout.readline()
            if not line:
                raise SystemExit("the probe ended before it was ready")
            if b"probe: ready" in line:
                break
        watcher = Watcher(path)
        watcher.mark("probe:echo ready", "echo ready")  # after the startup burst
        with watcher.lock:
            watcher.ticks.clear()  # the burst's counts are not ticks
        watcher.call(request(3, "loupe/mark", {"label": "probe:ticker 10"}))
        time.sleep(1)  # the ticker settles

        results = {}

        only = set(filter(None, args.only.split(",")))

        def measure(name, pattern):
            if only and name not in only and not name.startswith("none"):
                return
            start = time.monotonic()
            extra = pattern() or {}
            end = max(time.monotonic(), start + 3)
            time.sleep(max(0, start + 3 - time.monotonic()) + 0.2)
            results[name] = dict(worst_ms=watcher.worst_lateness(start, end), seconds=round(end - start, 2), **extra)

        measure("none", lambda: time.sleep(3))
        measure("big-filters-history", lambda: big_filters(path, args.smoke))
        measure("pipelined-subscribes", lambda: pipelined_subscribes(path, args.smoke))

        def idle():
            before = watcher.rss_kb()
            sockets = [connect(path) for _ in range(100 if args.smoke else 500)]
            time.sleep(2)
            held = watcher.rss_kb()
            for sock in sockets:
                sock.close()
            time.sleep(1)
            after = watcher.rss_kb()
            return {"rss_before_kb": before, "rss_with_kb": held, "rss_after_kb": after}

        measure("idle-500", idle)
        measure("huge-batch", lambda: {"answered": huge_batch(path, args.smoke)})
        measure("non-reading", lambda: non_reading(path, args.smoke))
        measure("garbage", lambda: garbage(path, args.smoke))
        measure("none-again", lambda: time.sleep(3))

        baseline = results["none"]["worst_ms"] or 0
        for name, result in results.items():
            result["extra_ms"] = None if result["worst_ms"] is None else round(result["worst_ms"] - baseline, 2)
            result["worst_ms"] = None if result["worst_ms"] is None else round(result["worst_ms"], 2)
        print("pattern                 worst lateness   extra over none", file=sys.stderr)
        for name, result in results.items():
            print("%-22s %10s ms %12s ms  %s" % (name, result["worst_ms"], result["extra_ms"],
                                                 {k: v for k, v in result.items() if k not in ("worst_ms", "extra_ms", "seconds")}),
                  file=sys.stderr)
        print(json.dumps({"benchmark": "host-jitter", "period_ms": PERIOD_MS, "watcher_dropped": watcher.dropped, "patterns": results}))
    finally:
        program.kill()
        program.wait()


if __name__ == "__main__":
    main()
