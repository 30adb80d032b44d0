import LoupeCore

/// Finds places in a trace file without reading it through, for a reader that needs one
/// moment of it (``TraceStateIndex/seeking(tracePath:store:through:)``).
///
/// Loupe writes a trace's lines in `seq` order, so the first line after a `seq` is found by
/// bisecting the file's bytes (go to a byte, skip to the next line start, read that line's
/// `seq` with ``EventLinePrefix``), and the last line of a kind and store before a place by
/// searching backwards for the bytes its start must hold (`"store":"AppFeature#1"`): lines are
/// looked at only where those bytes are. Every answer is `nil` when the file does not look the
/// way this needs (a line start that ``EventLinePrefix`` cannot read, `seq`s that go back):
/// the caller then reads the trace through instead.
package struct TraceSeek {
  package let file: TraceLineFile
  /// The file's size when it was opened.
  package let size: Int
  /// Where the line after the header starts.
  package let eventsStart: Int
  /// The lines read while bisecting, by offset: their `seq`s must not go back.
  private var probes: [(offset: Int, seq: Int)] = []
  /// Bytes read per step of a backward search.
  package var chunkSize = 4 << 20

  /// `nil` when `file` is not a regular file.
  package init?(file: TraceLineFile, eventsStart: Int) {
    guard let size = file.size else { return nil }
    self.file = file
    self.size = size
    self.eventsStart = eventsStart
  }

  /// The start of the first line that starts at or after `offset`; `size` when none does.
  package func lineStart(atOrAfter offset: Int) -> Int {
    guard offset > eventsStart else { return eventsStart }
    return file.lineStart(atOrAfter: offset, before: size) ?? size
  }

  /// The start of the line that starts at `offset`, read by ``EventLinePrefix`` (`nil`: it does
  /// not start the way Loupe writes events), with the bytes read.
  package func prefix(at offset: Int) -> (prefix: EventLinePrefix, bytes: [UInt8])? {
    var bytes = file.read(offset: offset, length: min(4096, size - offset))
    if let newline = bytes.firstIndex(of: 0x0A) { bytes.removeSubrange(newline...) }
    guard let prefix = bytes.withUnsafeBufferPointer({ EventLinePrefix.parse($0) }) else { return nil }
    return (prefix, bytes)
  }

  /// Whether the line at `offset` has no line break after it.
  package func isLastLine(at offset: Int) -> Bool {
    var at = offset
    while at < size {
      let bytes = file.read(offset: at, length: min(64 << 10, size - at))
      if bytes.isEmpty { return true }
      if bytes.contains(0x0A) { return false }
      at += bytes.count
    }
    return true
  }

  /// The start of the first line whose `seq` is after `seq` (`size` when none is), found by
  /// bisecting the file. `nil` when a line it reads cannot be read by its prefix or the `seq`s
  /// it read go back.
  mutating package func firstLine(after seq: Int) -> Int? {
    // The smallest byte position whose next line start has a `seq` after `seq`.
    var low = eventsStart
    var high = size
    // The first line too: a trace's later lines cannot have smaller `seq`s.
    guard let first = prefix(at: eventsStart) else { return nil }
    probes.append((eventsStart, first.prefix.seq))
    while low < high {
      let middle = low + (high - low) / 2
      let start = lineStart(atOrAfter: middle)
      if start >= size {
        high = middle
        continue
      }
      guard let read = prefix(at: start) else {
        // A last line cut short is no line (the pass reports it); any other: read through.
        guard isLastLine(at: start) else { return nil }
        high = middle
        continue
      }
      probes.append((start, read.prefix.seq))
      if read.prefix.seq <= seq { low = start + 1 } else { high = middle }
    }
    probes.sort { $0.offset < $1.offset }
    for (earlier, later) in zip(probes, probes.dropFirst()) where later.seq < earlier.seq { return nil }
    return lineStart(atOrAfter: low)
  }

  /// What to do with a line a backward search found.
  package enum Verdict { case take, skip }

  /// The start of the last line before `end` whose start holds `needle` where `at` of the
  /// prefix says (the store of ``EventLinePrefix``: `"store":"S"` is found by its bytes, then
  /// checked to be the line's own store, not a value's), that `verdict` takes. `nil` when
  /// none does.
  package func lastLine(
    before end: Int, holding needle: [UInt8], at place: (EventLinePrefix) -> Int?,
    _ verdict: (EventLinePrefix, [UInt8]) -> Verdict
  ) -> Int? {
    var chunkEnd = end
    while chunkEnd > eventsStart {
      let chunkStart = max(eventsStart, chunkEnd - chunkSize)
      let chunk = file.read(offset: chunkStart, length: chunkEnd - chunkStart)
      // Matches in this chunk, last first.
      let matches = Self.occurrences(of: needle, in: chunk)
      for match in matches.reversed() {
        guard let start = lineStart(before: chunkStart + match, chunk: chunk, chunkStart: chunkStart),
          let read = prefix(at: start), place(read.prefix).map({ start + $0 }) == chunkStart + match
        else { continue }
        if verdict(read.prefix, read.bytes) == .take { return start }
      }
      if chunkStart == eventsStart { break }
      // The next chunk overlaps this one by less than a needle: no match is found twice.
      chunkEnd = chunkStart + needle.count - 1
    }
    return nil
  }

  /// Where `needle` starts in `bytes`, in order (Horspool's search: most bytes are skipped).
  static package func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
    let count = needle.count
    guard count > 0, bytes.count >= count else { return [] }
    var shift = [Int](repeating: count, count: 256)
    for i in 0..<count - 1 { shift[Int(needle[i])] = count - 1 - i }
    var found: [Int] = []
    bytes.withUnsafeBufferPointer { text in
      needle.withUnsafeBufferPointer { wanted in
        shift.withUnsafeBufferPointer { shift in
          let last = wanted[count - 1]
          var at = 0
          while at + count <= text.count {
            let byte = text[at + count - 1]
            if byte == last, LibC.memcmp(text.baseAddress! + at, wanted.baseAddress!, count - 1) == 0 { found.append(at) }
            at += shift[Int(byte)]
          }
        }
      }
    }
    return found
  }

  /// The start of the line holding the byte at `offset`, when it is near (a prefix is short).
  private func lineStart(before offset: Int, chunk: [UInt8], chunkStart: Int) -> Int? {
    let limit = 4096
    var at = offset - 1
    while at >= eventsStart, offset - at <= limit {
      let byte = at >= chunkStart ? chunk[at - chunkStart] : file.read(offset: at, length: 1).first
      if byte == 0x0A { return at + 1 }
      if byte == nil { return nil }
      at -= 1
    }
    return at < eventsStart ? eventsStart : nil
  }

  /// How many line breaks there are before `offset` (for line numbers in damage reports).
  package func lineBreaks(before offset: Int) -> Int {
    var count = 0
    var at = 0
    while at < offset {
      let bytes = file.read(offset: at, length: min(chunkSize, offset - at))
      if bytes.isEmpty { break }
      bytes.withUnsafeBytes { raw in
        var from = 0
        while from < raw.count, let found = LibC.memchr(raw.baseAddress! + from, 0x0A, raw.count - from) {
          count += 1
          from = raw.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
        }
      }
      at += bytes.count
    }
    return count
  }
}

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
