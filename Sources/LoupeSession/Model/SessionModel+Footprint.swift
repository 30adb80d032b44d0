import LoupeCore

extension SessionModel {
  /// The bytes of the model's tables that grow with its events, from their storage
  /// (capacity × stride): the entries, kinds and line locations of every event, the per-store,
  /// per-line and per-root position lists, and the effect records (their strings not counted).
  /// The events themselves are not in it: a file-backed session holds none, only a bounded
  /// cache. What `BENCHMARKS.md` "Live sessions" and the bound test measure.
  package var indexBytes: Int {
    var bytes = entries.capacity * MemoryLayout<Entry>.stride
    bytes += kindCodes.capacity * MemoryLayout<UInt16>.stride
    bytes += storage.indexBytes
    let int32 = MemoryLayout<Int32>.stride
    for list in storeEvents { bytes += list.capacity * int32 }
    for list in storeActions { bytes += list.capacity * int32 }
    for list in byLine.values { bytes += list.capacity * int32 + MemoryLayout<Int>.stride }
    for root in stateIndex.roots.values { bytes += (root.snapshots.capacity + root.changes.capacity) * int32 }
    bytes += effectLives.capacity * (MemoryLayout<Int>.stride + MemoryLayout<EffectLife>.stride)
    bytes += effectOrder.capacity * MemoryLayout<Int>.stride
    for list in storeEffects { bytes += list.capacity * MemoryLayout<Int>.stride }
    return bytes
  }
}
