#!/usr/bin/env python3
"""How late the program's own timer fires while clients misbehave, as a well-behaved client
sees it; and what 500 idle connections cost the program in memory.

The program is `loupe-examples probe` serving on a Unix socket, with 20,000 events of
history, ticking its store every 10 ms on a fixed schedule (`probe:ticker 10`). A watcher
client subscribes to its `state.changed` events and reads each tick's `time` (stamped by
the program's thread as the tick is processed) and the count it set: the lateness of the tick
that set count n is `time_n - time_first - (n - n_first) × 10 ms`, corrected for the smallest
lateness seen (the schedule's own offset). The count, not the order of arrival, numbers the
ticks, so a tick the watcher lost (reported as `dropped`) shifts nothing.

Each pattern's window (3 s, or as long as the pattern lasts) sits between two windows with no
hostile client (none, P1, none, P2, none, …), and the whole sequence runs `--rounds` times
(default 3). A pattern's *extra* delay is the worst lateness during its window minus the mean
of the worst lateness of its two neighbouring quiet windows: the machine's own drift (other
processes' load coming and going) is taken out as it was just then. The script reports, per
pattern, the median and the worst extra over the rounds, and the quiet windows' spread.

On a shared machine the program's timer is late mostly because other processes hold the
cores. `--group-nice -10` (root, Linux) runs the program in a session of its own whose
scheduling group weighs ten nice levels more than the other sessions' (`/proc/PID/autogroup`),
so that other builds disturb it less; the hostile clients (this script) stay in their own
group at the ordinary weight, or lower with `--clients-group-nice 10`: a real hostile
client is another process, whose own CPU use the kernel shares fairly with the program
whatever the inspector does; that option takes the clients' own work out of the measure. Inside the program, the inspector's threads still run
LOUPE_THREAD_NICE levels below the program's main thread (`--thread-nice 0` turns that off,
for a side-by-side run).

Patterns, each from a fresh connection:

- none (the quiet windows): nobody but the watcher;
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


def enter_own_session():
    """Makes this process a session leader (a new Linux autogroup): a process-group leader
    cannot, so the script then goes on in a child and the parent only waits for it."""
    try:
        os.setsid()
        return
    except PermissionError:
        pass
    child = os.fork()
    if child:
        _, status = os.waitpid(child, 0)
        os._exit(os.waitstatus_to_exitcode(status))
    os.setsid()


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.join(here, "..", "..")
    parser.add_argument("--examples", default=None, help="loupe-examples to run (default: the main package's release, else debug build)")
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated patterns to run (the baseline always runs)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="how many times each pattern runs, each time between two windows with no hostile client (default 3)")
    parser.add_argument("--nice", type=int, default=0,
                        help="run the program at this niceness (e.g. -10, as root); its inspector's threads stay LOUPE_THREAD_NICE below it")
    parser.add_argument("--group-nice", type=int, default=None,
                        help="run the program in a session of its own whose scheduling group (Linux autogroup) has this niceness "
                             "(e.g. -10, as root): other sessions' processes (other builds on the machine) then disturb its timer less")
    parser.add_argument("--clients-group-nice", type=int, default=None,
                        help="run this script (the watcher and the hostile clients) in a session of its own whose scheduling "
                             "group has this niceness (e.g. 10): the clients' own CPU use then competes less with the program")
    parser.add_argument("--thread-nice", default=None, help="LOUPE_THREAD_NICE for the program (default: the inspector's default)")
    args = parser.parse_args()
    if args.clients_group_nice is not None:
        enter_own_session()
        with open("/proc/self/autogroup", "w") as group:
            group.write(str(args.clients_group_nice))
    examples = args.examples or next(
        (p for p in (os.path.join(root, ".build", c, "loupe-examples") for c in ("release", "debug")) if os.access(p, os.X_OK)), None)
    if not examples:
        print(json.dumps({"error": "build loupe-examples first: swift build -c release --product loupe-examples"}))
        sys.exit(1)

    directory = tempfile.mkdtemp(prefix="loupe-jitter-")
    path = os.path.join(directory, "probe.sock")
    env = dict(os.environ, LOUPE="unix:" + path, LOUPE_MAX_CLIENTS="600")
    env.pop("LOUPE_RECORD", None)
    if args.thread_nice is not None:
        env["LOUPE_THREAD_NICE"] = args.thread_nice
    prefix = ["nice", "-n", str(args.nice)] if args.nice else []
    program = subprocess.Popen(prefix + [examples, "probe", "--hold", "--seconds", "3600", "--burst", "10000"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                               start_new_session=args.group_nice is not None)
    controls = {"load_average_before": os.getloadavg(), "nice": args.nice, "thread_nice": args.thread_nice or "default"}
    with open("/proc/self/autogroup") as group:
        controls["clients_autogroup"] = group.read().strip()
    if args.group_nice is not None:
        with open("/proc/%d/autogroup" % program.pid, "w") as group:
            group.write(str(args.group_nice))
        with open("/proc/%d/autogroup" % program.pid) as group:
            controls["autogroup"] = group.read().strip()
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

        # The shortest window, in seconds (a smoke run only checks that it all runs).
        shortest = 1 if args.smoke else 3

        def window(pattern):
            """Runs `pattern` (at least `shortest` s); the worst lateness of a tick meanwhile, and what it returned."""
            start = time.monotonic()
            extra = pattern() or {}
            end = max(time.monotonic(), start + shortest)
            time.sleep(max(0, start + shortest - time.monotonic()) + 0.2)
            return watcher.worst_lateness(start, end), round(end - start, 2), extra

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

        patterns = [
            ("big-filters-history", lambda: big_filters(path, args.smoke)),
            ("pipelined-subscribes", lambda: pipelined_subscribes(path, args.smoke)),
            ("idle-500", idle),
            ("huge-batch", lambda: {"answered": huge_batch(path, args.smoke)}),
            ("non-reading", lambda: non_reading(path, args.smoke)),
            ("garbage", lambda: garbage(path, args.smoke)),
        ]
        only = set(filter(None, args.only.split(",")))
        patterns = [(name, run) for name, run in patterns if not only or name in only]
        rounds = 1 if args.smoke else max(1, args.rounds)

        # none, P1, none, P2, none, …: each pattern's extra is over the mean of the two
        # windows with no hostile client on either side of it, so the machine's own drift
        # (other processes' load coming and going) is compared with what it was just then.
        baselines = []
        results = {name: {"worst_ms": [], "extra_ms": [], "seconds": [], "details": []} for name, _ in patterns}
        previous = window(lambda: time.sleep(shortest))[0]
        baselines.append(previous)
        for _ in range(rounds):
            for name, run in patterns:
                worst, seconds, extra = window(run)
                after = window(lambda: time.sleep(shortest))[0]
                baselines.append(after)
                result = results[name]
                result["worst_ms"].append(worst)
                result["seconds"].append(seconds)
                result["details"].append(extra)
                if worst is not None and previous is not None and after is not None:
                    result["extra_ms"].append(worst - (previous + after) / 2)
                previous = after

        def summary(values):
            values = [v for v in values if v is not None]
            return {"median": round(median(values), 2), "worst": round(max(values), 2)} if values else None

        report = {}
        for name, result in results.items():
            report[name] = {"worst_lateness_ms": summary(result["worst_ms"]), "extra_ms": summary(result["extra_ms"]),
                            "rounds": [round(v, 2) for v in result["extra_ms"]], "details": result["details"]}
        controls["load_average_after"] = os.getloadavg()
        baseline = summary(baselines)
        print("rounds %d; baseline windows (no hostile client): worst lateness median %s ms, worst %s ms" % (
            rounds, baseline and baseline["median"], baseline and baseline["worst"]), file=sys.stderr)
        print("%-22s %22s %30s  %s" % ("pattern", "worst lateness med/max", "extra over neighbours med/max", "extra per round"),
              file=sys.stderr)
        for name, result in report.items():
            lateness, extra = result["worst_lateness_ms"], result["extra_ms"]
            print("%-22s %22s %30s  %s" % (
                name, lateness and "%.1f / %.1f ms" % (lateness["median"], lateness["worst"]),
                extra and "%.1f / %.1f ms" % (extra["median"], extra["worst"]), result["rounds"]), file=sys.stderr)
        print("controls: %s" % controls, file=sys.stderr)
        print(json.dumps({"benchmark": "host-jitter", "period_ms": PERIOD_MS, "rounds": rounds, "controls": controls,
                          "watcher_dropped": watcher.dropped, "baseline_ms": baseline,
                          "baseline_windows_ms": [None if b is None else round(b, 2) for b in baselines], "patterns": report}))
    finally:
        program.kill()
        program.wait()


if __name__ == "__main__":
    main()
