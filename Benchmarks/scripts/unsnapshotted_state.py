#!/usr/bin/env python3
"""A state late in a trace without snapshots: `loupe state --at` and `loupe dap`'s State scope.

    unsnapshotted_state.py [--before DIR] [--events N] [--runs R] [--bin DIR] [--smoke]

A version-1 trace without `state.snapshot` (`unsnapshotted_trace.py`: 1,000,000 events and
~333,000 changes by default, scoped stores whose `rows` reach 1,000 elements) is written, and
each binary is asked, R times in turn (default 3), for:

- `loupe show` of the whole trace (text, to /dev/null): the pace to compare with;

- `loupe state --store 'App#1/items[id: 483]' --at 0.999 N` (a scoped store: its root's state
  must be rebuilt from the trace's start), under `/usr/bin/time -v`;
- `loupe dap`: `launch {trace}` to its first stop (the trace indexed), `goto` the same seq,
  then the `State` scope's `variables`, and a second `goto` 1,000 events earlier with its
  `variables` (what stepping back costs).

With `--before DIR`, the `loupe` in DIR is measured too, alternating with `--bin`'s, so the
machine's load weighs on both alike. Output: JSON with the median wall and CPU seconds and the
largest peak RSS (MB) of each, and the printed states compared between the two binaries.
"""

import json
import os
import re
import subprocess
import sys
import time

import benchlib
from dap_steps import Adapter


def extra(parser):
    parser.add_argument("--before", default=None, help="a directory holding another build's loupe, measured alternately")
    parser.add_argument("--events", type=int, default=None, help="events in the trace (default 1,000,000; smoke 20,000)")
    parser.add_argument("--runs", type=int, default=None, help="runs of each question (default 3; smoke 1)")


STORE = "App#1/items[id: 483]"


def timed(command, stdout=subprocess.PIPE):
    """(wall, CPU seconds, peak RSS MB, stdout) of `command` under /usr/bin/time -v."""
    command = ["/usr/bin/time", "-v"] + command
    start = time.perf_counter()
    completed = subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if completed.returncode != 0:
        benchlib.fail(f"{command[2:4]} exited with {completed.returncode}: {completed.stderr.decode(errors='replace')[-400:]}")
    report = completed.stderr.decode()
    cpu = float(re.search(r"User time \(seconds\): ([\d.]+)", report).group(1))
    cpu += float(re.search(r"System time \(seconds\): ([\d.]+)", report).group(1))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report).group(1)) / 1024
    return wall, cpu, rss, completed.stdout


def state_at(loupe, trace, seq):
    return timed([loupe, "state", trace, "--store", STORE, "--at", str(seq), "--format", "json"])


def dap_state(loupe, trace, seq):
    adapter = Adapter(loupe)
    adapter.request("initialize", {"adapterID": "loupe"})
    start = time.perf_counter()
    adapter.request("launch", {"trace": trace, "stopOnEntry": True})
    adapter.request("configurationDone")
    stop = adapter.until("stopped")
    launch = time.perf_counter() - start
    times = []
    for target in (seq, seq - 1_000):
        start = time.perf_counter()
        adapter.request("goto", {"threadId": stop["threadId"], "targetId": target})
        stop = adapter.until("stopped")
        frames = adapter.request("stackTrace", {"threadId": stop["threadId"], "levels": 1})["stackFrames"]
        scopes = adapter.request("scopes", {"frameId": frames[0]["id"]})["scopes"]
        state = next(s for s in scopes if s["name"].startswith("State"))
        adapter.request("variables", {"variablesReference": state["variablesReference"]})
        times.append(time.perf_counter() - start)
    rss = adapter.peak_rss_mb()
    cpu = adapter.cpu_seconds()
    adapter.close()
    return launch, times, cpu, rss


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 1_000_000)
    runs = args.runs or (1 if args.smoke else 3)
    seq = events * 999 // 1000
    builds = [("after", args.loupe)]
    if args.before:
        builds.insert(0, ("before", os.path.join(args.before, "loupe")))
    here = os.path.dirname(os.path.abspath(__file__))
    results = {name: {"state": [], "dap": [], "show": []} for name, _ in builds}
    printed = {}
    with benchlib.scratch_directory() as directory:
        trace = os.path.join(directory, "unsnapshotted.loupe")
        benchlib.run_timed([sys.executable, os.path.join(here, "unsnapshotted_trace.py"), trace, "--events", str(events)])
        benchlib.log(f"  trace: {events:,} events, {os.path.getsize(trace) / 1e6:.0f} MB, no snapshots")
        for run in range(runs):
            for name, loupe in builds:
                wall, cpu, rss, out = state_at(loupe, trace, seq)
                printed[name] = out
                results[name]["state"].append((wall, cpu, rss))
                benchlib.log(f"  {name} state --at {seq}: {wall:.2f} s wall, {cpu:.2f} s CPU, {rss:.0f} MB")
                wall, cpu, rss, _ = timed([loupe, "show", trace], stdout=subprocess.DEVNULL)
                results[name]["show"].append((wall, cpu, rss))
                benchlib.log(f"  {name} show (text, the whole trace): {wall:.2f} s wall, {cpu:.2f} s CPU, {rss:.0f} MB")
                launch, times, cpu, rss = dap_state(loupe, trace, seq)
                results[name]["dap"].append((times, cpu, rss, launch))
                benchlib.log(f"  {name} dap launch: {launch:.2f} s, goto + State: {times[0]:.2f} s, back 1,000: {times[1]:.2f} s, {cpu:.2f} s CPU, {rss:.0f} MB")
    summary = {"events": events, "seq": seq, "runs": runs, "machine": benchlib.machine()}
    for name, result in results.items():
        summary[name] = {
            "stateWallSeconds": benchlib.median([r[0] for r in result["state"]]),
            "stateCPUSeconds": benchlib.median([r[1] for r in result["state"]]),
            "statePeakRSSMB": max(r[2] for r in result["state"]),
            "dapLaunchSeconds": benchlib.median([r[3] for r in result["dap"]]),
            "dapGotoSeconds": benchlib.median([r[0][0] for r in result["dap"]]),
            "dapBackSeconds": benchlib.median([r[0][1] for r in result["dap"]]),
            "dapCPUSeconds": benchlib.median([r[1] for r in result["dap"]]),
            "dapPeakRSSMB": max(r[2] for r in result["dap"]),
            "showWallSeconds": benchlib.median([r[0] for r in result["show"]]),
            "showCPUSeconds": benchlib.median([r[1] for r in result["show"]]),
        }
    if len(printed) == 2:
        summary["sameState"] = printed["before"] == printed["after"]
    benchlib.emit_result(summary)


if __name__ == "__main__":
    main()
