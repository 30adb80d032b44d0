#!/usr/bin/env bash
# The module cut (README "Architecture"): each module imports only the modules below it, and
# the modules an app links (LoupeCore, LoupeRPC, Loupe) hold no process launcher and no trace
# reader. Fails naming the file and line of each import or symbol that breaks a rule.
set -euo pipefail
cd "$(dirname "$0")/../.."

# module → the package modules it may import (toolchain modules are always allowed).
declare -A allowed=(
  [LoupeCore]=""
  [LoupeRPC]="LoupeCore"
  [Loupe]="LoupeCore LoupeRPC"
  [LoupeSession]="LoupeCore"
  [LoupeClient]="LoupeCore LoupeRPC LoupeSession"
  [LoupeTesting]="LoupeCore Loupe LoupeSession"
  [LoupeCLI]="LoupeCore LoupeRPC LoupeSession LoupeClient"
  [LoupeExamples]="LoupeCore LoupeRPC Loupe"
  [loupe]="LoupeCLI"
  [loupe-examples]="LoupeExamples"
)
toolchain=" Foundation FoundationEssentials FoundationNetworking Dispatch Synchronization Observation XCTest Testing Glibc Musl Darwin SwiftUI UIKit AppKit os "
package_modules=" ${!allowed[*]} "

failed=0
for module in "${!allowed[@]}"; do
  dir="Sources/$module"
  [ -d "$dir" ] || { echo "module-imports: $dir is missing (update this check with the module list)"; failed=1; continue; }
  while IFS= read -r hit; do
    file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; text=${rest#*:}
    imported=$(sed -E 's/^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+(class |struct |enum |func |protocol )?([A-Za-z_]+).*/\3/' <<<"$text")
    case "$toolchain" in *" $imported "*) continue ;; esac
    case " ${allowed[$module]} " in *" $imported "*) continue ;; esac
    case "$package_modules" in
      *" $imported "*) echo "module-imports: $file:$line: $module may not import $imported (allowed: ${allowed[$module]:-none})" ;;
      *) echo "module-imports: $file:$line: $module imports $imported, which is neither a module of this package nor the toolchain's" ;;
    esac
    failed=1
  done < <(grep -rnE '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]' "$dir" --include='*.swift' || true)
done

# Modules an app links: no process launching, no trace reading.
for dir in Sources/LoupeCore Sources/LoupeRPC Sources/Loupe; do
  if grep -rnE '(^|[^.A-Za-z_ ]|[^c] |[^n]c |[^u]nc |[^f]unc )(posix_spawn[a-z_]*|fork|vfork|execv[pe]*|execl[pe]*|system|popen)[[:space:]]*\(' "$dir" --include='*.swift' |
    grep -vE '^[^:]+:[0-9]+:[[:space:]]*//'; then
    echo "module-imports: $dir is linked by apps and must not start processes (see above)"; failed=1
  fi
  if grep -rnwE 'TraceReader|LineReader|SessionModel|TraceStateIndex|TraceSeek|EventLineScanner' "$dir" --include='*.swift' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//'; then
    echo "module-imports: $dir is linked by apps and must not read traces (see above)"; failed=1
  fi
done

if [ "$failed" = 0 ]; then echo "module-imports: every import follows the module rules"; fi
exit "$failed"
