select(.kind != null) |
"\(.time)ms #\(.seq) \(.kind) \(.store // "")  " + (
  if .kind == "action.received" then
    .action + (if .origin == "effect" then " (from effect \(.effect))" elif .origin == "parent" then " (from parent)" else "" end)
  elif .kind == "state.changed" then
    .summary + ([.changes[] | (if has("old") then "\n    - \(.path): \(.old | tojson)" else "" end)
                              + (if has("new") then "\n    + \(.path): \(.new | tojson)" else "" end)] | join(""))
  elif .kind == "effect.started" then "effect \(.effect), cancel id \(.cancelID) (from #\(.cause))"
  elif .kind == "effect.finished" then "effect \(.effect) \(.outcome)"
  elif .kind == "effect.cancelled" then "effect \(.effect) cancelled: \(.reason) by \(.by.store) (#\(.by.cause))"
  elif .kind == "derived.recomputed" then "\(.derived) in \(.durationNs)ns, output changed: \(.outputChanged) (from #\(.cause))"
  else del(.seq, .time, .kind, .store) | tojson end)
