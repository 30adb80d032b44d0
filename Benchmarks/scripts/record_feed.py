#!/usr/bin/env python3
"""`loupe record` alone at a fixed rate: a feeder stands in for the program and writes
pre-encoded `loupe/events` notifications over the real transport (stdio, Content-Length
frames), so the emitter's own cost is out of the way.

`loupe record FILE -- record_feed.py --feeder FRAMES STATS`: the feeder answers `initialize`
and `loupe/subscribe` (history 0), then writes the prepared frames on a schedule (`--rate`
events per second, `--batch` events per notification), notes how far behind schedule it ever
was (a write that blocks because `loupe record` does not keep up shows there), and exits.
The events are the lines of a trace made by `loupe-bench-emit trace` (the usual mix).

Reported per run: `loupe record`'s own CPU (user + system, /proc/PID/stat before reaping), the
feeder's achieved rate (events / time from first to last write) and its largest lag behind
schedule, and the trace checked (every event there, none dropped). "Holds the rate" means the
feeder's achieved rate was at least 95% of `--rate` (a pipe blocks rather than drops, so a
`loupe record` that cannot keep up slows the feeder) and every event was recorded.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

KINDS = ["session.started", "store.created", "store.destroyed", "identity.changed", "action.received", "state.changed",
         "state.snapshot", "effect.started", "effect.finished", "effect.cancelled", "derived.recomputed", "mark",
         "dropped", "warning"]
HERE = os.path.dirname(os.path.abspath(__file__))


def frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frame(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return json.loads(stream.read(length))


def feeder(frames_path, stats_path, rate, batch):
    with open(frames_path, "rb") as handle:
        frames = handle.read()
    # Frame boundaries (the file is frames back to back).
    bounds = []
    offset = 0
    while offset < len(frames):
        header_end = frames.index(b"\r\n\r\n", offset)
        length = int(frames[offset:header_end].split(b":")[1])
        end = header_end + 4 + length
        bounds.append((offset, end))
        offset = end
    view = memoryview(frames)
    stdin = sys.stdin.buffer

    def write(data):
        data = memoryview(data)
        while data:
            data = data[os.write(1, data):]

    while True:
        message = read_frame(stdin)
        if message is None:
            return
        if message.get("method") == "initialize":
            result = {"protocolVersion": "1", "serverInfo": {"name": "loupe", "version": "0.1.0"},
                      "process": {"pid": os.getpid(), "name": "record_feed"},
                      "capabilities": {"eventKinds": KINDS, "methods": ["initialize", "loupe/subscribe", "shutdown",
                                                                         "initialized", "exit"]}}
            write(frame(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}).encode()))
        elif message.get("method") == "loupe/subscribe":
            write(frame(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {"history": 0}}).encode()))
            break
    start = time.perf_counter()
    lag = 0.0
    for index, (begin, end) in enumerate(bounds):
        due = start + index * batch / rate
        now = time.perf_counter()
        if now < due:
            time.sleep(due - now)
        else:
            lag = max(lag, now - due)
        write(view[begin:end])
    finished = time.perf_counter()
    events = len(bounds) * batch
    with open(stats_path, "w") as handle:
        json.dump({"events": events, "seconds": finished - start, "achieved": events / (finished - start),
                   "maxLagSeconds": lag}, handle)
    os.close(1)


def prepare(trace, frames_path, events, batch):
    """Frames of `batch` events each from the trace's event lines (header skipped)."""
    with open(trace, "rb") as source, open(frames_path, "wb") as target:
        source.readline()
        lines = []
        count = 0
        for line in source:
            lines.append(line.rstrip(b"\n"))
            count += 1
            if len(lines) == batch:
                target.write(frame(b'{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[' + b",".join(lines) + b"]}}"))
                lines = []
            if count == events:
                break
    return count - len(lines)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--feeder":
        feeder(sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5]))
        return
    sys.path.insert(0, HERE)
    import benchlib

    def extra(parser):
        parser.add_argument("--events", type=int, default=None, help="events per run (default 1,000,000; smoke 20,000)")
        parser.add_argument("--rate", type=int, default=1_000_000, help="events per second the feeder writes")
        parser.add_argument("--batch", type=int, default=250, help="events per notification")
        parser.add_argument("--repetitions", type=int, default=None, help="runs (default 3; smoke 1)")
        parser.add_argument("--other-bin", default=None, help="also run this build's loupe, alternately")

    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 1_000_000)
    repetitions = args.repetitions or (1 if args.smoke else 3)
    builds = {"bin": args.loupe}
    if args.other_bin:
        builds["other"] = os.path.join(args.other_bin, "loupe")
    runs = []
    with tempfile.TemporaryDirectory() as directory:
        source = os.path.join(directory, "mix.loupe")
        benchlib.run_timed([args.emit, "trace", "--events", str(events), source])
        frames = os.path.join(directory, "frames.bin")
        events = prepare(source, frames, events, args.batch)
        for repetition in range(repetitions):
            for name, loupe in builds.items():
                trace = os.path.join(directory, f"out-{name}-{repetition}.loupe")
                stats = os.path.join(directory, "stats.json")
                command = [loupe, "record", trace, "--", sys.executable, os.path.abspath(__file__), "--feeder",
                           frames, stats, str(args.rate), str(args.batch)]
                process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
                with open(f"/proc/{process.pid}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
                status = process.wait()
                with open(stats) as handle:
                    fed = json.load(handle)
                recorded, dropped = benchlib.trace_summary(trace)
                holds = status == 0 and dropped == 0 and recorded == events and fed["achieved"] >= 0.95 * args.rate
                runs.append({"build": name, "cpuSeconds": cpu, "recorded": recorded, "dropped": dropped,
                             "achievedRate": round(fed["achieved"]), "maxLagSeconds": round(fed["maxLagSeconds"], 3),
                             "holds": holds})
                benchlib.log(f"  {name}: {cpu:.2f} s CPU ({cpu / events * 1e6:.2f} µs/event), {recorded:,} recorded, "
                             f"{dropped:,} dropped, fed at {fed['achieved']:,.0f}/s, max lag {fed['maxLagSeconds']:.3f} s"
                             f"{'' if holds else ' — did not hold'}")
    benchlib.emit_result({"events": events, "rate": args.rate, "batch": args.batch,
                          "loadAverage": list(os.getloadavg()), "runs": runs})


if __name__ == "__main__":
    main()
