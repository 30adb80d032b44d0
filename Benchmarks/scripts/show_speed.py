#!/usr/bin/env python3
"""`loupe show` at the speed of its I/O: `--format json` filters against `grep -F`, and the
text timeline against jq producing similar text.

A trace of N events of the typical mix (1,000,000 by default; 20,000 in smoke mode) is
generated into a temporary directory. Two pairs run alternately (ABBA), output to files:

- json: `loupe show TRACE --kind 'effect.*' --format json` against
  `grep -F '"kind":"effect.' TRACE` — the same selection (checked: the same lines, byte for
  byte, since the mix has no `dropped` events). grep does no JSON at all, so this is the floor
  for a filter on raw lines.
- text: `loupe show TRACE` (the timeline) against `jq -r -f show_text.jq TRACE`, a jq program
  printing about the same text: time, seq, kind, store, then per kind the action (and where
  it came from), the summary and −/+ lines of each change, the effect and its cause, … (jq
  does not track effect durations or action labels by seq, which loupe adds). Checked: both
  print a line per event plus one per changed value.

Times are wall seconds of each process (median of the repetitions; 5 and 3 by default, 1 in
smoke mode), with user+sys CPU seconds reported too (the machine is shared: CPU time is
steadier). Output: JSON with the medians and ratios.
"""

import os
import resource
import shutil
import subprocess
import time

import benchlib

HERE = os.path.dirname(os.path.abspath(__file__))


def extra(parser):
    parser.add_argument("--events", type=int, default=None, help="events in the trace (default 1,000,000; smoke 20,000)")
    parser.add_argument("--repetitions", type=int, default=None, help="runs of each json command (default 5; smoke 1)")
    parser.add_argument("--text-repetitions", type=int, default=None, help="runs of each text command (default 3; smoke 1)")


def timed(command, out_path):
    """(wall seconds, CPU seconds of the child) of one run, stdout to `out_path`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(out_path, "wb") as out:
        completed = subprocess.run(command, stdout=out, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode not in (0, 5):  # jq: 5 for the header line, which has no kind
        benchlib.fail(f"{' '.join(command)} exited with {completed.returncode}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def pair(name, ours, theirs, repetitions, directory):
    ours_out, theirs_out = os.path.join(directory, name + ".loupe.out"), os.path.join(directory, name + ".other.out")
    walls, cpus = ([], []), ([], [])
    for repetition in range(repetitions):
        order = (0, 1) if repetition % 2 == 0 else (1, 0)
        for side in order:
            wall, cpu = timed(ours if side == 0 else theirs, ours_out if side == 0 else theirs_out)
            walls[side].append(wall)
            cpus[side].append(cpu)
        benchlib.log(f"  {name} {repetition + 1}: loupe {walls[0][-1]:.3f} s ({cpus[0][-1]:.3f} s CPU), "
                     f"other {walls[1][-1]:.3f} s ({cpus[1][-1]:.3f} s CPU)")
    return {
        "loupeSeconds": benchlib.median(walls[0]), "otherSeconds": benchlib.median(walls[1]),
        "loupeCPUSeconds": benchlib.median(cpus[0]), "otherCPUSeconds": benchlib.median(cpus[1]),
        "ratios": [o / t for o, t in zip(walls[0], walls[1])],
    }, ours_out, theirs_out


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    jq, grep = shutil.which("jq"), shutil.which("grep")
    if not jq or not grep:
        if args.smoke:
            benchlib.emit_result({"skipped": "jq or grep is not installed"})
            return
        benchlib.fail("jq and grep are needed (apt-get install -y jq)")
    events = args.events or (20_000 if args.smoke else 1_000_000)
    repetitions = args.repetitions or (1 if args.smoke else 5)
    text_repetitions = args.text_repetitions or (1 if args.smoke else 3)
    with benchlib.scratch_directory() as directory:
        trace = os.path.join(directory, "mix.loupe")
        benchlib.run_timed([args.emit, "trace", "--events", str(events), trace])
        size = os.path.getsize(trace)
        benchlib.log(f"  trace: {events:,} events, {size / 1e6:.0f} MB")

        json_result, ours, theirs = pair(
            "json", [args.loupe, "show", trace, "--kind", "effect.*", "--format", "json"],
            [grep, "-F", '"kind":"effect.', trace], repetitions, directory)
        with open(ours, "rb") as a, open(theirs, "rb") as b:
            selected = a.read()
            if selected != b.read() or not selected:
                benchlib.fail("loupe show --format json and grep -F selected different lines")
        json_result["matched"] = selected.count(b"\n")

        text_result, ours, theirs = pair(
            "text", [args.loupe, "show", trace], [jq, "-r", "-f", os.path.join(HERE, "show_text.jq"), trace],
            text_repetitions, directory)
        with open(ours, "rb") as a, open(theirs, "rb") as b:
            ours_lines, theirs_lines = a.read().count(b"\n"), b.read().count(b"\n")
        if ours_lines < events or abs(ours_lines - theirs_lines) > events // 100:
            benchlib.fail(f"loupe printed {ours_lines} lines and jq {theirs_lines}: not the same text")
        text_result["lines"] = ours_lines

        benchlib.emit_result({
            "events": events, "bytes": size, "repetitions": repetitions, "textRepetitions": text_repetitions,
            "json": json_result, "jsonSlowdownVsGrep": json_result["loupeSeconds"] / json_result["otherSeconds"],
            "jsonCPUSlowdownVsGrep": json_result["loupeCPUSeconds"] / max(json_result["otherCPUSeconds"], 1e-9),
            "text": text_result, "textSpeedupVsJQ": text_result["otherSeconds"] / text_result["loupeSeconds"],
            "textCPUSpeedupVsJQ": text_result["otherCPUSeconds"] / max(text_result["loupeCPUSeconds"], 1e-9),
        })


if __name__ == "__main__":
    main()
