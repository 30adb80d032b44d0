#!/usr/bin/env bash
# The README's and docs/'s examples are real tests: every ```swift block that follows a
# `<!-- mirrored in PATH -->` line must be exactly the file PATH, which `swift test` runs,
# and every failure text after `<!-- pinned in PATH -->` must be the one that test pins.
set -euo pipefail
cd "$(dirname "$0")/../.."

python3 - <<'PY'
import pathlib, re, sys
readme = pathlib.Path("README.md").read_text()
pattern = re.compile(r"<!-- mirrored in (\S+) -->\n```swift\n(.*?)```\n", re.S)
found = pattern.findall(readme)
if not found:
    sys.exit("README.md has no <!-- mirrored in PATH --> snippets")
for doc in sorted(pathlib.Path("docs").glob("*.md")):
    found += pattern.findall(doc.read_text())
failed = False
for path, code in found:
    file = pathlib.Path(path)
    if not file.exists():
        print(f"README snippet mirrors {path}, which does not exist"); failed = True; continue
    if file.read_text() != code:
        print(f"README snippet differs from {path}:"); failed = True
        import difflib
        sys.stdout.writelines(difflib.unified_diff(file.read_text().splitlines(True), code.splitlines(True), path, "README.md"))
# A failure message shown in the README must be the one its test pins (as an indented
# multi-line string literal in PATH).
pinned = re.findall(r"<!-- pinned in (\S+) -->\n```\n(.*?)```\n", readme, re.S)
for path, text in pinned:
    file = pathlib.Path(path)
    indented = "\n".join(("    " + line) if line else "" for line in text.rstrip("\n").split("\n"))
    if not file.exists() or indented not in file.read_text():
        print(f"README's failure text is not the one pinned in {path}"); failed = True
print(f"{len(found)} README and docs snippets and {len(pinned)} failure texts checked")
sys.exit(1 if failed else 0)
PY
