#!/usr/bin/env python3
"""`send` with the inspector idle against the same store with its instrumentation compiled out.

The instrumentation of a store is everything behind `EventBus.isActive`; built with
`-D LOUPE_NO_INSTRUMENTATION`, `isActive` is the constant `false` and the compiler drops all
of it. So the comparison needs two builds of the same program, `loupe-bench-emit send-loop`
(a small feature's store, no sink attached, sending actions in a loop):

- the normal one, from the Benchmarks build (`--bin`);
- one built here with `-D LOUPE_NO_INSTRUMENTATION` into Benchmarks/.build-noinstr (about a
  minute the first time, incremental afterwards; not in smoke mode).

Two measures:
- time: the two programs run alternately, five times each (ABBA order), each timing five
  rounds of sends after a warm-up; the ratio is the median of the paired medians;
- instructions (when valgrind is installed): callgrind counts each program's instructions
  for N and 2N sends; the difference over N is the cost of one send, repeatable whatever
  else the machine is doing.
"""

import json
import os
import shutil
import subprocess

import benchlib

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)


def extra(parser):
    parser.add_argument("--no-build", action="store_true", help="use an existing Benchmarks/.build-noinstr build")
    parser.add_argument("--repetitions", type=int, default=None, help="runs of each program (default 5)")


def build_compiled_out():
    scratch = os.path.join(PACKAGE, ".build-noinstr")
    command = ["swift", "build", "-c", "release", "--package-path", PACKAGE, "--scratch-path", scratch,
               "--product", "loupe-bench-emit", "-Xswiftc", "-DLOUPE_NO_INSTRUMENTATION"]
    benchlib.log("  building the compiled-out variant: " + " ".join(command))
    completed = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if completed.returncode != 0:
        benchlib.fail("building the compiled-out variant failed:\n" + completed.stdout.decode(errors="replace")[-2000:])
    return os.path.join(scratch, "release", "loupe-bench-emit")


def time_per_send(program, iterations, samples):
    _, completed = benchlib.run_timed(
        [program, "send-loop", "--iterations", str(iterations), "--samples", str(samples)], stdout=subprocess.PIPE)
    result = json.loads(completed.stdout)
    return result["variant"], benchlib.median(result["nsPerSend"])


def instructions_per_send(program, n=2000):
    counts = []
    with benchlib.scratch_directory() as directory:
        for iterations in (n, 2 * n):
            out = os.path.join(directory, f"callgrind.{iterations}")
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", program, "send-loop",
                            "--iterations", str(iterations)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=True)
            with open(out) as handle:
                total = next(int(line.split()[1]) for line in handle if line.startswith(("summary:", "totals:")))
            counts.append(total)
    return (counts[1] - counts[0]) / n


def main():
    args = benchlib.arguments(__doc__.splitlines()[0], extra)
    idle_program = args.emit
    if args.smoke:
        # No second build in smoke mode: run the loop once to check that it works.
        variant, ns = time_per_send(idle_program, 2_000, 2)
        benchlib.emit_result({"smoke": True, "idleNs": ns, "variant": variant})
        return
    compiled_out = os.path.join(PACKAGE, ".build-noinstr", "release", "loupe-bench-emit")
    if not args.no_build or not os.access(compiled_out, os.X_OK):
        compiled_out = build_compiled_out()
    repetitions = args.repetitions or 5
    idle_times, out_times, ratios = [], [], []
    for repetition in range(repetitions):
        order = [(idle_program, idle_times), (compiled_out, out_times)]
        if repetition % 2:
            order.reverse()
        for program, times in order:
            variant, ns = time_per_send(program, 200_000, 5)
            times.append(ns)
        ratios.append(idle_times[-1] / out_times[-1])
        benchlib.log(f"  repetition {repetition + 1}: idle {idle_times[-1]:.0f} ns/send, "
                     f"compiled out {out_times[-1]:.0f} ns/send")
    result = {
        "idleNs": benchlib.median(idle_times), "compiledOutNs": benchlib.median(out_times),
        "timeRatio": benchlib.median(ratios), "timeRatioRange": [min(ratios), max(ratios)], "repetitions": repetitions,
    }
    if shutil.which("valgrind"):
        idle_instructions = instructions_per_send(idle_program)
        out_instructions = instructions_per_send(compiled_out)
        result.update({"idleInstructions": idle_instructions, "compiledOutInstructions": out_instructions,
                       "instructionRatio": idle_instructions / out_instructions})
        benchlib.log(f"  callgrind: idle {idle_instructions:.0f} instructions/send, "
                     f"compiled out {out_instructions:.0f}")
    benchlib.emit_result(result)


if __name__ == "__main__":
    main()
