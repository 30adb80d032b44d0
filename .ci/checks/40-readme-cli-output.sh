#!/usr/bin/env bash
# The README's CLI reference shows real output: every code block that follows a
# `<!-- cli-output: run in DIR -->` line is a transcript. Each `$ loupe …` line is run with
# the built loupe in DIR and its standard output must equal the lines after it (up to the
# next `$ ` line, trailing blank lines aside), where a line `…` stands for any number of lines.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

loupe="$(swift build --show-bin-path)/loupe"
[ -x "$loupe" ] || swift build --product loupe

LOUPE_BIN="$loupe" python3 - <<'PY'
import os, pathlib, re, shlex, subprocess, sys
loupe = os.environ["LOUPE_BIN"]
readme = pathlib.Path("README.md").read_text()
blocks = re.findall(r"<!-- cli-output: run in (\S+) -->\n```\n(.*?)```\n", readme, re.S)
if not blocks:
    sys.exit("README.md has no <!-- cli-output: run in DIR --> transcripts")

def matches(expected, actual):
    """Whether `actual` lines match `expected`, where '…' matches any run of lines."""
    if not expected:
        return not actual
    if expected[0] == "…":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])

failed = 0
checked = 0
for directory, body in blocks:
    transcript = []
    for line in body.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            transcript.append((line[2:], []))
        elif transcript:
            transcript[-1][1].append(line)
    for command, expected in transcript:
        while expected and expected[-1] == "":
            expected.pop()  # the blank line that separates commands in a transcript
        words = shlex.split(command)
        if words[0] != "loupe":
            sys.exit(f"README transcript runs {words[0]!r}, not loupe: {command}")
        run = subprocess.run([loupe] + words[1:], cwd=directory, capture_output=True, text=True)
        actual = run.stdout.rstrip("\n").split("\n") if run.stdout else []
        checked += 1
        if not matches(expected, actual):
            failed += 1
            print(f"README transcript differs from the real output of `{command}` (in {directory}):")
            print("  expected:\n    " + "\n    ".join(expected))
            print("  actual:\n    " + "\n    ".join(actual))
if failed:
    sys.exit(f"{failed} README CLI transcript(s) out of date")
print(f"README CLI transcripts: {checked} commands match")
PY
