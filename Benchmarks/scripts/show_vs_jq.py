#!/usr/bin/env python3
"""`loupe show --kind 'effect.*' --format json` against jq on a generated trace.

A trace of N events of a typical mix (1,000,000 by default; 20,000 in smoke mode) is
generated into a temporary directory (and removed afterwards), then both commands filter it
to the `effect.*` events, alternately, five times each (once in smoke mode):

    loupe show TRACE --kind 'effect.*' --format json > OUT
    jq -c 'select(.kind | startswith("effect."))' < TRACE > OUT

jq reports an error for the header line (it has no `kind`) and goes on; that is expected.
Both must print the same events (same count, same `seq`s; jq respells some numbers, e.g.
`5.0` as `5`). Output: JSON with the median wall time of each and the ratio.
"""

import json
import os
import shutil

import benchlib

JQ_FILTER = 'select(.kind | startswith("effect."))'


def extra(parser):
    parser.add_argument("--events", type=int, default=None, help="events in the trace (default 1,000,000; smoke 20,000)")
    parser.add_argument("--repetitions", type=int, default=None, help="runs of each command (default 5; smoke 1)")


def seqs(path):
    with open(path, "rb") as handle:
        return [json.loads(line)["seq"] for line in handle]


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    jq = shutil.which("jq")
    if not jq:
        if args.smoke:
            benchlib.emit_result({"skipped": "jq is not installed"})
            return
        benchlib.fail("jq is not installed (apt-get install -y jq)")
    events = args.events or (20_000 if args.smoke else 1_000_000)
    repetitions = args.repetitions or (1 if args.smoke else 5)
    with benchlib.scratch_directory() as directory:
        trace = os.path.join(directory, "mix.loupe")
        benchlib.run_timed([args.emit, "trace", "--events", str(events), trace])
        size = os.path.getsize(trace)
        benchlib.log(f"  trace: {events:,} events, {size / 1e6:.0f} MB")
        loupe_out = os.path.join(directory, "loupe.out")
        jq_out = os.path.join(directory, "jq.out")
        loupe_times, jq_times = [], []
        for repetition in range(repetitions):
            def run_loupe():
                with open(loupe_out, "wb") as out:
                    wall, _ = benchlib.run_timed(
                        [args.loupe, "show", trace, "--kind", "effect.*", "--format", "json"], stdout=out)
                loupe_times.append(wall)

            def run_jq():
                with open(trace, "rb") as source, open(jq_out, "wb") as out:
                    # Exit status 5: the header line has no `kind`; jq reports it and goes on.
                    wall, completed = benchlib.run_timed([jq, "-c", JQ_FILTER], stdin=source, stdout=out, check=False)
                if completed.returncode not in (0, 5):
                    benchlib.fail(f"jq exited with {completed.returncode}")
                jq_times.append(wall)

            # Alternate which goes first, so drift and other load hit both alike.
            for step in ((run_loupe, run_jq) if repetition % 2 == 0 else (run_jq, run_loupe)):
                step()
            benchlib.log(f"  repetition {repetition + 1}: loupe {loupe_times[-1]:.3f} s, jq {jq_times[-1]:.3f} s")
        ours, theirs = seqs(loupe_out), seqs(jq_out)
        if ours != theirs or not ours:
            benchlib.fail(f"loupe printed {len(ours)} events and jq {len(theirs)}, or different ones")
        loupe_median, jq_median = benchlib.median(loupe_times), benchlib.median(jq_times)
        ratios = [j / l for l, j in zip(loupe_times, jq_times)]
        benchlib.emit_result({
            "events": events, "bytes": size, "matched": len(ours), "repetitions": repetitions,
            "loupeSeconds": loupe_median, "jqSeconds": jq_median, "speedup": jq_median / loupe_median,
            "speedupRange": [min(ratios), max(ratios)],
        })


if __name__ == "__main__":
    main()
