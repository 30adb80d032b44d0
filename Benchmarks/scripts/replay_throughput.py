#!/usr/bin/env python3
"""`loupe replay` to a client that reads, against `cat` feeding the same client.

A trace of N events of the typical mix (1,000,000 by default; 20,000 in smoke mode) is
generated into a temporary directory. The client writes `initialize`, `initialized`,
`loupe/subscribe {history: true}`, `shutdown` and `exit` to `loupe replay TRACE` at once,
closes its end, and reads the answers and every `loupe/events` notification to the end of the
output, 1 MB at a time (what an editor does, minus its own work on the events). The time is
from the start of `loupe replay` to the end of its output, so it includes opening the trace.

The same client then reads the same bytes (the replay's output, saved once) from `cat`: the
floor set by the pipe and the client. Both alternately, five times each (once in smoke
mode). Before timing, one replay's output is checked: N events, in order, none missing.
Output: JSON with the median times, events per second, and the ratio.
"""

import json
import os
import subprocess
import time

import benchlib


def extra(parser):
    parser.add_argument("--events", type=int, default=None, help="events in the trace (default 1,000,000; smoke 20,000)")
    parser.add_argument("--repetitions", type=int, default=None, help="runs of each side (default 5; smoke 1)")


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


REQUESTS = b"".join([
    frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "bench"}}}),
    frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    frame({"jsonrpc": "2.0", "id": 2, "method": "loupe/subscribe", "params": {"history": True}}),
    frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}),
    frame({"jsonrpc": "2.0", "method": "exit"}),
])


def read_all(process, keep=None):
    """Reads the process's stdout to its end; returns the byte count (and keeps the bytes in `keep`)."""
    total = 0
    fd = process.stdout.fileno()
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        total += len(chunk)
        if keep is not None:
            keep.append(chunk)
    return total


def replay(args, trace, keep=None):
    start = time.perf_counter()
    process = subprocess.Popen([args.loupe, "replay", trace], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    process.stdin.write(REQUESTS)
    process.stdin.close()
    size = read_all(process, keep)
    status = process.wait()
    elapsed = time.perf_counter() - start
    if status != 0:
        benchlib.fail(f"loupe replay exited with {status}")
    return elapsed, size


def cat(path):
    start = time.perf_counter()
    process = subprocess.Popen(["cat", path], stdout=subprocess.PIPE)
    size = read_all(process)
    process.wait()
    return time.perf_counter() - start, size


def check(output, events):
    """Every event of the trace, in order, once."""
    seqs = []
    position = 0
    while position < len(output):
        header_end = output.index(b"\r\n\r\n", position)
        length = int(output[position:header_end].split(b":")[1])
        body = json.loads(output[header_end + 4:header_end + 4 + length])
        position = header_end + 4 + length
        if body.get("method") == "loupe/events":
            seqs.extend(event["seq"] for event in body["params"]["events"])
    if seqs != list(range(1, events + 1)):
        benchlib.fail(f"the replay sent {len(seqs)} events, not the trace's {events} in order")


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 1_000_000)
    repetitions = args.repetitions or (1 if args.smoke else 5)
    with benchlib.scratch_directory() as directory:
        trace = os.path.join(directory, "mix.loupe")
        benchlib.run_timed([args.emit, "trace", "--events", str(events), trace])
        benchlib.log(f"  trace: {events:,} events, {os.path.getsize(trace) / 1e6:.0f} MB")
        chunks = []
        replay(args, trace, keep=chunks)
        output = b"".join(chunks)
        check(output, events)
        saved = os.path.join(directory, "replay.out")
        with open(saved, "wb") as handle:
            handle.write(output)
        del output, chunks
        replay_times, cat_times = [], []
        for repetition in range(repetitions):
            def run_replay():
                replay_times.append(replay(args, trace)[0])

            def run_cat():
                cat_times.append(cat(saved)[0])

            for step in ((run_replay, run_cat) if repetition % 2 == 0 else (run_cat, run_replay)):
                step()
            benchlib.log(f"  repetition {repetition + 1}: replay {replay_times[-1]:.3f} s, cat {cat_times[-1]:.3f} s")
        replay_median, cat_median = benchlib.median(replay_times), benchlib.median(cat_times)
        benchlib.emit_result({
            "events": events, "bytes": os.path.getsize(saved), "repetitions": repetitions,
            "replaySeconds": replay_median, "catSeconds": cat_median,
            "eventsPerSecond": events / replay_median, "catEventsPerSecond": events / cat_median,
            "slowdown": replay_median / cat_median,
            "slowdownRange": [min(r / c for r, c in zip(replay_times, cat_times)),
                              max(r / c for r, c in zip(replay_times, cat_times))],
        })


if __name__ == "__main__":
    main()
