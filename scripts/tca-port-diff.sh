#!/usr/bin/env bash
# How much TCA's example apps changed when ported to Loupe (Tests/TCAExamplesTests, issue 30):
# per file, the original's lines (SwiftUI views left out, as in the port), and the lines
# `diff` counts removed (or changed) and added; then the totals and the tests kept.
#
#   scripts/tca-port-diff.sh /path/to/swift-composable-architecture
#
# The checkout is read, never copied into this repository.
set -euo pipefail
tca=${1:?usage: scripts/tca-port-diff.sh /path/to/swift-composable-architecture}
root=$(cd "$(dirname "$0")/.." && pwd)
python3 - "$tca" "$root" <<'PY'
import os, subprocess, sys, tempfile
tca, root = sys.argv[1], sys.argv[2]
ex = os.path.join(tca, "Examples")
port = os.path.join(root, "Tests", "TCAExamplesTests")
ttt = "TicTacToe/tic-tac-toe/"

def whole(path):
    return open(os.path.join(ex, path)).read()

def cut_from(path, marker):
    s = whole(path)
    return s[: s.index(marker)].rstrip("\n") + "\n"

def search_reducer(path):
    s = whole(path)
    return s[: s.index("private let readMe")] + s[s.index("@Reducer") : s.index("struct SearchView: View")].rstrip("\n") + "\n"

files = [
    ("Todos/Todos/Todos.swift", "Todos/Todos.swift", lambda p: cut_from(p, "struct AppView")),
    ("Todos/Todos/Todo.swift", "Todos/Todo.swift", lambda p: cut_from(p, "struct TodoView")),
    ("Todos/TodosTests/TodosTests.swift", "Todos/TodosTests.swift", whole),
    ("Search/Search/SearchView.swift", "Search/Search.swift", search_reducer),
    ("Search/Search/WeatherClient.swift", "Search/WeatherClient.swift", whole),
    ("Search/SearchTests/SearchTests.swift", "Search/SearchTests.swift", whole),
]
for name in ["AuthenticationClient/AuthenticationClient", "GameCore/GameCore", "GameCore/Three",
             "LoginCore/LoginCore", "NewGameCore/NewGameCore", "TwoFactorCore/TwoFactorCore"]:
    files.append((ttt + "Sources/" + name + ".swift", "TicTacToe/" + name.split("/")[1] + ".swift", whole))
for name in ["GameCore", "LoginCore", "NewGameCore", "TwoFactorCore"]:
    files.append((ttt + f"Tests/{name}Tests/{name}Tests.swift", f"TicTacToe/{name}Tests.swift", whole))

total = removed_all = added_all = 0
tests_original = tests_port = 0
print(f"{'file':44} {'lines':>6} {'removed':>8} {'added':>6}")
for original, ported, read in files:
    text = read(original)
    with tempfile.NamedTemporaryFile("w", suffix=".swift", delete=False) as f:
        f.write(text)
    out = subprocess.run(["diff", f.name, os.path.join(port, ported)], capture_output=True, text=True).stdout
    os.unlink(f.name)
    removed = sum(1 for l in out.splitlines() if l.startswith("<"))
    added = sum(1 for l in out.splitlines() if l.startswith(">"))
    lines = text.count("\n")
    total, removed_all, added_all = total + lines, removed_all + removed, added_all + added
    if ported.endswith("Tests.swift"):
        tests_original += text.count("@Test")
        tests_port += open(os.path.join(port, ported)).read().count("@Test")
    print(f"{ported:44} {lines:6} {removed:8} {added:6}")
print(f"{'total':44} {total:6} {removed_all:8} {added_all:6}")
print(f"original lines removed or changed: {100 * removed_all / total:.1f}%, lines added: {100 * added_all / total:.1f}%")
print(f"tests: {tests_original} in the originals, {tests_port} in the port")
PY
