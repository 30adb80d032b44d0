import LoupeCore

extension TraceStateIndex {
  /// An index for the state of one store right after `through` (the end of the trace when
  /// `nil`) that reads only the part of the trace that state needs, wherever that is in the
  /// file; `nil` when the trace must be read through instead (``init(tracePath:through:)``).
  ///
  /// A state is its root's last `state.snapshot` at or before the moment with the changes
  /// since applied (``StateIndex``), so only the lines from that snapshot on are read: the
  /// place of the moment is found by bisecting the file by `seq` (Loupe writes lines in `seq`
  /// order), the snapshot by searching backwards for its line's bytes, and from there the
  /// same pass as ``init(tracePath:through:)`` runs. A scoped store's life may have begun
  /// before the snapshot: its last `store.created` or `store.destroyed` is found by searching
  /// backwards for its line's bytes too. With the default snapshot policy (CONTRACT §10) the
  /// part read is at most about 1,000 actions' events, however large the trace.
  ///
  /// The index answers what ``init(tracePath:through:)``'s would for `store` at that moment;
  /// other stores and moments may be missing from it. `nil` (read it through) when:
  /// - the file is not a regular file (a pipe), or `store`'s id needs escapes in JSON;
  /// - a line read while bisecting does not start the way Loupe writes events, or the `seq`s
  ///   read go back (lines not in `seq` order); only the lines read are checked;
  /// - the root has no `state.snapshot` by then (a trace from before snapshots, or with
  ///   them turned off), or it had a `state.changed` (of it or a scoped store) before its first
  ///   one in the trace's first megabyte (``TraceSeek/changesBeforeSnapshot(of:window:)``:
  ///   such a trace is read through without searching it backwards first).
  /// Damage (malformed lines, a cut-short end) is reported only for the part read.
  public static func seeking(tracePath: String, store: String, through: Int?) throws(TraceError) -> TraceStateIndex? {
    try seeking(tracePath: tracePath, store: store, through: through, chunkSize: 4 << 20)
  }

  /// ``seeking(tracePath:store:through:)`` searching backwards `chunkSize` bytes at a time.
  static package func seeking(tracePath: String, store: String, through: Int?, chunkSize: Int) throws(TraceError) -> TraceStateIndex? {
    guard LibC.isRegularFile(tracePath) else { return nil }
    let root = StateRebuilder.rootStore(of: store)
    guard let storeBytes = plainJSONString(store), let rootBytes = plainJSONString(root) else { return nil }
    let reader = try TraceReader(path: tracePath)
    let file = try TraceLineFile(path: tracePath)
    guard var seek = TraceSeek(file: file, eventsStart: reader.bytesRead), seek.eventsStart < seek.size,
      let first = seek.prefix(at: seek.eventsStart)?.prefix.seq
    else { return nil }
    seek.chunkSize = chunkSize
    let end: Int
    if let through {
      guard let found = seek.firstLine(after: through) else { return nil }
      end = found
    } else {
      end = seek.size
    }
    // A root changed before any snapshot of it has none to seek from.
    if seek.changesBeforeSnapshot(of: rootBytes) { return nil }
    // The root's last snapshot before the moment's end.
    let quote = UInt8(ascii: "\"")
    let snapshotNeedle = Array(#""kind":"state.snapshot","store":""#.utf8) + rootBytes + [quote]
    var snapshotSeq = 0
    let kindMember = #""kind":""#.utf8.count
    guard
      let start = seek.lastLine(before: end, holding: snapshotNeedle, at: { $0.kind.lowerBound - kindMember }, { prefix, _ in
        snapshotSeq = prefix.seq
        return .take
      })
    else { return nil }
    // The store's life: a root's snapshot says it is alive; a scoped store's last lifecycle
    // event before the snapshot says whether it is, or a state event of it that it is known.
    var life: Life? = Life(created: snapshotSeq, destroyed: nil)
    var known = true
    if store != root {
      life = nil
      known = false
      let storeMember = #""store":""#.utf8.count
      let storeNeedle = Array(#""store":""#.utf8) + storeBytes + [quote]
      _ = seek.lastLine(before: start, holding: storeNeedle, at: { $0.store.map { $0.lowerBound - storeMember } }) { prefix, bytes in
        switch String(decoding: bytes[prefix.kind], as: UTF8.self) {
        case StoreCreated.kind:
          (life, known) = (Life(created: prefix.seq, destroyed: nil), true)
          return .take
        case StoreDestroyed.kind:
          (life, known) = (Life(created: prefix.seq, destroyed: prefix.seq), true)
          return .take
        case StateChanged.kind:
          known = true
          return .skip
        default:
          return .skip
        }
      }
    }
    func read(linesBefore: Int) throws(TraceError) -> TraceStateIndex? {
      let reader = try TraceReader(path: tracePath)
      guard reader.seek(toOffset: start, linesBefore: linesBefore) else { return nil }
      let index = TraceStateIndex(reader: reader, file: file)
      index.startSought(firstSeq: first, store: known ? store : nil, life: life)
      try index.pass(through: through)
      return index.seqsGoBack ? nil : index
    }
    guard let index = try read(linesBefore: 0) else { return nil }
    guard index.reader.malformedLineCount > 0 || index.reader.truncation != nil else { return index }
    // Damage is reported by line number: count the lines before the part read.
    return try read(linesBefore: seek.lineBreaks(before: start))
  }

  /// The UTF-8 bytes of `text` as a JSON string holds them when it needs no escapes.
  private static func plainJSONString(_ text: String) -> [UInt8]? {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return nil }
    return bytes
  }
}
