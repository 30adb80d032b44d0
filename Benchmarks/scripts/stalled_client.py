#!/usr/bin/env python3
"""Memory and speed of a program whose client has stalled.

The emitter serves on a Unix socket (LOUPE=unix:PATH) and emits N events of a typical mix as
fast as it can (10,000,000 by default; 200,000 in smoke mode), in two set-ups, alternately,
three times each (once in smoke mode):

- no client: nobody connects (the inspector still keeps its ring buffer of recent events);
- stalled client: a client connects, initializes, subscribes, sends a `bench:go` mark
  (which starts the emission), reads the answer and then never reads again.

The emitter reports its own emission time and its resident memory (VmRSS just before the
emission, VmHWM after it). Timing on a shared machine is noisy, so when valgrind is
installed (and not in smoke mode) callgrind also counts the emitter's instructions per event
in both set-ups (100,000 and 200,000 events; the difference over 100,000), which is
repeatable. Output: JSON with the median emission times, their ratio (stalled / no client),
the instruction counts, and the largest memory growth seen with the stalled client.
"""

import json
import os
import shutil
import socket
import subprocess
import time

import benchlib


def extra(parser):
    parser.add_argument("--events", type=int, default=None, help="events per run (default 10,000,000; smoke 200,000)")
    parser.add_argument("--repetitions", type=int, default=None, help="runs of each set-up (default 5; smoke 1)")
    parser.add_argument("--no-instructions", action="store_true", help="do not count instructions with callgrind")
    parser.add_argument("--value-bytes", type=int, default=0,
                        help="emit state changes carrying a value of this many bytes instead of the typical mix")


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_until_answer(connection, answer_id, deadline):
    """Reads frames until the answer with `answer_id`; returns nothing, fails on timeout."""
    buffer = b""
    while time.monotonic() < deadline:
        while b"\r\n\r\n" in buffer:
            header, rest = buffer.split(b"\r\n\r\n", 1)
            length = next(int(line.split(b":")[1]) for line in header.split(b"\r\n")
                          if line.lower().startswith(b"content-length"))
            if len(rest) < length:
                break
            body, buffer = rest[:length], rest[length:]
            message = json.loads(body)
            if message.get("id") == answer_id:
                return
        chunk = connection.recv(65536)
        if not chunk:
            benchlib.fail("the program closed the connection")
        buffer += chunk
    benchlib.fail("no answer from the program in time")


def run(args, directory, events, stalled, wrapper=()):
    path = os.path.join(directory, "program.sock")
    report = os.path.join(directory, "report.json")
    for stale in (path, report):
        if os.path.exists(stale):
            os.unlink(stale)
    env = dict(os.environ, LOUPE=f"unix:{path}")
    env.pop("LOUPE_RECORD", None)
    command = list(wrapper) + [args.emit, "emit", "--events", str(events), "--report", report]
    if args.value_bytes:
        command += ["--value-bytes", str(args.value_bytes)]
    if stalled:
        command.append("--wait-go")
    program = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    connection = None
    try:
        if stalled:
            deadline = time.monotonic() + 60
            while not os.path.exists(path):
                if time.monotonic() > deadline or program.poll() is not None:
                    benchlib.fail("the program did not open its socket")
                time.sleep(0.01)
            # The socket file appears at bind(), a moment before listen(): retry a refusal.
            while True:
                connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    connection.connect(path)
                    break
                except ConnectionRefusedError:
                    connection.close()
                    if time.monotonic() > deadline or program.poll() is not None:
                        benchlib.fail("the program refused the connection")
                    time.sleep(0.01)
            connection.sendall(
                frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "stalled"}}})
                + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
                + frame({"jsonrpc": "2.0", "id": 2, "method": "loupe/subscribe", "params": {}})
                + frame({"jsonrpc": "2.0", "id": 3, "method": "loupe/mark", "params": {"label": "bench:go"}}))
            read_until_answer(connection, 3, time.monotonic() + 60)
            # From here on the client reads nothing: the program's queue for it fills up.
        try:
            _, stderr = program.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            program.kill()
            benchlib.fail("the program did not finish within 10 minutes (blocked by the stalled client?)")
        if program.returncode != 0:
            benchlib.fail(f"the program exited with {program.returncode}: {stderr.decode(errors='replace')[-500:]}")
    finally:
        if connection:
            connection.close()
        if program.poll() is None:
            program.kill()
            program.wait()
    result = benchlib.read_json(report)
    result["growthMB"] = (result["rssPeakKB"] - result["rssBaseKB"]) / 1024
    result["stalled"] = stalled
    if not wrapper:
        benchlib.log(f"  {'stalled client' if stalled else 'no client     '}: {events:,} events in {result['seconds']:.3f} s, "
                     f"RSS {result['rssBaseKB'] / 1024:.1f} MB before, peak {result['rssPeakKB'] / 1024:.1f} MB "
                     f"(+{result['growthMB']:.1f} MB)")
    return result


def instructions_per_event(args, directory, stalled, n=100_000):
    totals = []
    for events in (n, 2 * n):
        out = os.path.join(directory, "callgrind.out")
        run(args, directory, events, stalled, wrapper=("valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"))
        with open(out) as handle:
            totals.append(next(int(line.split()[1]) for line in handle if line.startswith(("summary:", "totals:"))))
        os.unlink(out)
    per_event = (totals[1] - totals[0]) / n
    benchlib.log(f"  callgrind, {'stalled client' if stalled else 'no client'}: {per_event:,.0f} instructions per event")
    return per_event


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (200_000 if args.smoke else 10_000_000)
    repetitions = args.repetitions or (1 if args.smoke else 5)
    alone, stalled = [], []
    with benchlib.scratch_directory() as directory:
        for repetition in range(repetitions):
            order = (False, True) if repetition % 2 == 0 else (True, False)
            for with_client in order:
                (stalled if with_client else alone).append(run(args, directory, events, with_client))
        counts = {}
        if not args.smoke and not args.no_instructions and shutil.which("valgrind"):
            counts = {"aloneInstructions": instructions_per_event(args, directory, False),
                      "stalledInstructions": instructions_per_event(args, directory, True)}
            counts["instructionRatio"] = counts["stalledInstructions"] / counts["aloneInstructions"]
    alone_seconds = benchlib.median([r["seconds"] for r in alone])
    stalled_seconds = benchlib.median([r["seconds"] for r in stalled])
    benchlib.emit_result({
        "events": events, "repetitions": repetitions,
        "aloneSeconds": alone_seconds, "stalledSeconds": stalled_seconds,
        "slowdown": stalled_seconds / alone_seconds,
        "stalledGrowthMB": max(r["growthMB"] for r in stalled),
        "aloneGrowthMB": max(r["growthMB"] for r in alone),
        "stalledPeakMB": max(r["rssPeakKB"] for r in stalled) / 1024,
        **counts,
        "runs": alone + stalled,
    })


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError, StopIteration) as error:
        benchlib.fail(f"{type(error).__name__}: {error}")
