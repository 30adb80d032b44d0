#!/usr/bin/env python3
"""How many events a second `loupe record` takes in, with a program that is never the limit.

A real program can't show it: its own work and the inspector's (building, encoding and writing
each event) cost more than recording them, so on two cores the emitter is the limit
(BENCHMARKS.md, "Readers and I/O"). Here the program is this script in `--serve` mode: it
answers `initialize` and `loupe/subscribe` as Loupe's inspector does (answers captured from a
real one), then writes the events of a trace made by `loupe-bench-emit`, packed as
`loupe/events` notifications of 1,000 events, as fast as the pipe takes them, and exits.
`loupe record FILE -- python3 record_ingest.py --serve FEED` then records them; what it can
take per second is its own speed: the notifications are made before the clock starts and a
pipe holds at most 1 MB, so the feeder waits on `loupe record`, never the other way round.

`record_feed.py` asks for a fixed rate instead, and reports whether it was held.

Each run's trace is checked (every event there, in order; none dropped). Reports the
events per second (wall time of the whole `loupe record` run, start-up and the trace's
last write included) and `loupe record`'s own CPU per event.
"""

import fcntl
import json
import mmap
import os
import subprocess
import sys
import time

import benchlib
from record_feed import frame, read_frame

BATCH = 1_000


def serve(feed):
    """The program side: answer the handshake, then stream the feed's events and leave."""
    with open(feed, "rb") as handle:
        events = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    try:  # a larger pipe: fewer switches between the two processes (Linux; as root or within the limit)
        fcntl.fcntl(1, 1031, 1 << 20)  # F_SETPIPE_SZ
    except OSError:
        pass
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        message = read_frame(stdin)  # the decoded message (a dict)
        if message is None:
            return
        method, ident = message.get("method"), message.get("id")
        if method == "initialize":
            result = {"protocolVersion": "1", "serverInfo": {"name": "loupe", "version": "0.1.0"},
                      "process": {"pid": os.getpid(), "name": "record-ingest"},
                      "capabilities": {"eventKinds": [], "methods": ["initialize", "loupe/subscribe"]}}
            stdout.write(frame(json.dumps({"jsonrpc": "2.0", "id": ident, "result": result}).encode()))
            stdout.flush()
        elif method == "loupe/subscribe":
            stdout.write(frame(json.dumps({"jsonrpc": "2.0", "id": ident, "result": {"history": 0}}).encode()))
            view = memoryview(events)
            for start in range(0, len(view), 1 << 20):
                stdout.write(view[start:start + (1 << 20)])
            stdout.flush()
            return  # the program ends: `loupe record` finishes its trace
        elif ident is not None:
            stdout.write(frame(json.dumps({"jsonrpc": "2.0", "id": ident, "result": None}).encode()))
            stdout.flush()


def make_feed(trace, feed):
    """The trace's events as `loupe/events` notifications; returns how many events."""
    count = 0
    with open(trace, "rb") as source, open(feed, "wb") as out:
        source.readline()  # the header
        batch = []

        def flush():
            if batch:
                out.write(frame(b'{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[' + b",".join(batch) + b"]}}"))
                batch.clear()

        for line in source:
            batch.append(line.rstrip(b"\n"))
            count += 1
            if len(batch) == BATCH:
                flush()
        flush()
    return count


def extra(parser):
    parser.add_argument("--events", type=int, default=None, help="events (default 1,000,000; smoke 20,000)")
    parser.add_argument("--repetitions", type=int, default=None, help="runs (default 5; smoke 1)")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        return serve(sys.argv[2])
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 1_000_000)
    repetitions = args.repetitions or (1 if args.smoke else 5)
    with benchlib.scratch_directory() as directory:
        source = os.path.join(directory, "mix.loupe")
        feed = os.path.join(directory, "feed.bin")
        benchlib.run_timed([args.emit, "trace", "--events", str(events), source])
        fed = make_feed(source, feed)
        benchlib.log(f"  feed: {fed:,} events, {os.path.getsize(feed) / 1e6:.0f} MB of notifications")
        walls, cpus = [], []
        for repetition in range(repetitions):
            trace = os.path.join(directory, f"run{repetition}.loupe")
            start = time.perf_counter()
            process = subprocess.Popen([args.loupe, "record", trace, "--", sys.executable, os.path.abspath(__file__),
                                        "--serve", feed], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)  # exited, not yet reaped
            wall = time.perf_counter() - start
            with open(f"/proc/{process.pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            status = process.wait()
            recorded, dropped = benchlib.trace_summary(trace)
            if status != 0 or dropped or recorded != fed:
                benchlib.fail(f"run {repetition}: exit {status}, {recorded:,} recorded of {fed:,}, {dropped:,} dropped: "
                              + process.stderr.read().decode(errors="replace")[-500:])
            walls.append(wall)
            cpus.append(cpu)
            benchlib.log(f"  run {repetition + 1}: {wall:.3f} s wall, {cpu:.2f} s CPU of loupe record, {fed / wall:,.0f} events/s")
            os.remove(trace)
    wall = benchlib.median(walls)
    benchlib.emit_result({
        "events": fed,
        "repetitions": repetitions,
        "wallSeconds": wall,
        "eventsPerSecond": fed / wall,
        "eventsPerSecondRange": [fed / max(walls), fed / min(walls)],
        "recordCPUMicrosecondsPerEvent": benchlib.median(cpus) / fed * 1e6,
        "loadAverage": os.getloadavg(),
    })


if __name__ == "__main__":
    main()
