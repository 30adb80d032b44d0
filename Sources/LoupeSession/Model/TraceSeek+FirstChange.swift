import LoupeCore

extension TraceSeek {
  /// Whether the trace's first `window` bytes hold a `state.changed` of root store `root` (its
  /// id's UTF-8 bytes) or of a store scoped under it, with no `state.snapshot` of `root`
  /// before it: a root's first snapshot comes before its first action is reported (CONTRACT
  /// §10), so such a trace records the root without snapshots (a Loupe from before them, or
  /// snapshots turned off) and a search backwards for one would read the whole file in vain.
  /// `false` when the window does not tell (no such change in it).
  ///
  /// Only lines whose start holds the bytes where ``EventLinePrefix`` reads the kind count.
  package func changesBeforeSnapshot(of root: [UInt8], window: Int = 1 << 20) -> Bool {
    guard size > eventsStart else { return false }
    let chunk = file.read(offset: eventsStart, length: min(window, size - eventsStart))
    let quote = UInt8(ascii: "\"")
    let changed = Array(#""kind":"state.changed","store":""#.utf8) + root
    let snapshot = Array(#""kind":"state.snapshot","store":""#.utf8) + root + [quote]
    let firstSnapshot = Self.occurrences(of: snapshot, in: chunk).first { startsKind(at: $0, in: chunk) } ?? Int.max
    for match in Self.occurrences(of: changed, in: chunk) {
      let after = match + changed.count
      guard after < chunk.count, chunk[after] == quote || chunk[after] == UInt8(ascii: "/"), startsKind(at: match, in: chunk) else {
        continue
      }
      return match < firstSnapshot
    }
    return false
  }

  /// Whether the bytes at `match` in `chunk` (read from ``eventsStart``) are where the
  /// ``EventLinePrefix`` of their line reads the `"kind":"` member.
  private func startsKind(at match: Int, in chunk: [UInt8]) -> Bool {
    guard let start = lineStart(before: eventsStart + match, chunk: chunk, chunkStart: eventsStart), let read = prefix(at: start) else {
      return false
    }
    return start + read.prefix.kind.lowerBound - #""kind":""#.utf8.count == eventsStart + match
  }
}
