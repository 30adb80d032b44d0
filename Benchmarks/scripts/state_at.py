#!/usr/bin/env python3
"""`loupe state --at` on a 1M-event trace: under a second wherever the moment is, memory flat.

A trace of N events of the typical mix (1,000,000 by default; 20,000 in smoke mode) is
generated with a `state.snapshot` of the root store every 1,000 of its tree's actions (CONTRACT
§10's default policy; `--snapshot-every`). Then a release `loupe state` is run R times
(default 5; smoke 1) for each of several moments — near the start, the middle, the end, and
the end without `--at` — for the root store and for one of its scoped stores, each under
`/usr/bin/time -v` for its wall time, CPU time (user + system) and peak resident memory.
Output: JSON with the median wall and CPU times (milliseconds) and the largest peak RSS (MB) of
each question, and the trace's size.

Each question is asked twice, in turn: with the store's literal id (`loupe state` then seeks:
it bisects the file for --at and reads from the root's last snapshot on) and with a glob that
matches only that store (`AppFeature?1`: a glob with a wildcard makes it read the trace
through up to --at, the way every question was answered before seeking) — the two paths of
one binary side by side, so the machine's load weighs on both alike.
"""

import json
import os
import re
import subprocess

import benchlib


def extra(parser):
    parser.add_argument("--events", type=int, default=None, help="events in the trace (default 1,000,000; smoke 20,000)")
    parser.add_argument("--runs", type=int, default=None, help="runs of each question (default 5; smoke 1)")
    parser.add_argument("--snapshot-every", type=int, default=1000, help="actions between snapshots (default 1000)")


def timed(loupe, arguments):
    """(wall ms, CPU ms, peak RSS MB, stdout) of one `loupe` run under /usr/bin/time -v."""
    completed = subprocess.run(["/usr/bin/time", "-v", loupe] + arguments, capture_output=True)
    if completed.returncode != 0:
        benchlib.fail(f"loupe {' '.join(arguments)}: {completed.stderr.decode(errors='replace')[-800:]}")
    report = completed.stderr.decode(errors="replace")
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", report)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", report).group(1))
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", report).group(1))
    hours, minutes, seconds = int(wall.group(1) or 0), int(wall.group(2)), float(wall.group(3))
    wall_ms = (hours * 3600 + minutes * 60 + seconds) * 1000
    return wall_ms, (user + system) * 1000, int(rss.group(1)) / 1024, completed.stdout


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    events = args.events or (20_000 if args.smoke else 1_000_000)
    runs = args.runs or (1 if args.smoke else 5)
    with benchlib.scratch_directory() as directory:
        trace = f"{directory}/mix.loupe"
        seconds, _ = benchlib.run_timed([args.emit, "trace", "--events", str(events), "--snapshot-every", str(args.snapshot_every), trace])
        size_mb = os.path.getsize(trace) / 1e6
        benchlib.log(f"  generated {events:,} events ({size_mb:.0f} MB) in {seconds:.1f} s")
        scoped = "AppFeature#1/pages[id: 7]"
        questions = {
            "start (#100)": ["--store", "AppFeature#1", "--at", "100"],
            "middle": ["--store", "AppFeature#1", "--at", str(events // 2)],
            "end (#N-1)": ["--store", "AppFeature#1", "--at", str(events - 1)],
            "end (no --at)": ["--store", "AppFeature#1"],
            "scoped store, middle": ["--store", scoped, "--at", str(events // 2)],
            "scoped store, end": ["--store", scoped],
        }
        results = {}
        for name, arguments in questions.items():
            # The same store as a glob with a wildcard: read through (the path before seeking).
            through = [argument.replace("AppFeature#1", "AppFeature?1") for argument in arguments]
            sides = {"seek": (arguments, [], [], [], []), "pass": (through, [], [], [], [])}
            for _ in range(runs):
                for side, (question, walls, cpus, peaks, outputs) in sides.items():
                    wall, cpu, peak, printed = timed(args.loupe, ["state", trace, "--format", "json"] + question)
                    walls.append(wall)
                    cpus.append(cpu)
                    peaks.append(peak)
                    outputs.append(printed)
            if set(sides["seek"][4]) != set(sides["pass"][4]) or len(set(sides["seek"][4])) != 1:
                benchlib.fail(f"{name}: seeking and the pass printed different states")
            results[name] = {}
            for side, (_, walls, cpus, peaks, outputs) in sides.items():
                results[name][side] = {"medianMs": benchlib.median(walls), "maxMs": max(walls), "medianCPUMs": benchlib.median(cpus),
                                       "peakRSSMB": max(peaks), "outputBytes": len(outputs[-1])}
                benchlib.log(f"  {name} ({side}): median {benchlib.median(walls):.0f} ms wall ({benchlib.median(cpus):.0f} ms CPU), "
                             f"slowest {max(walls):.0f} ms, peak RSS {max(peaks):.1f} MB, {len(outputs[-1]):,} bytes printed")
        benchlib.emit_result({"events": events, "traceMB": size_mb, "snapshotEvery": args.snapshot_every, "runs": runs,
                              "questions": results, "machine": benchlib.machine()})


if __name__ == "__main__":
    main()
