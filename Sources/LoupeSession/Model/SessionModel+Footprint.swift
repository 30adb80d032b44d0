import LoupeCore

extension SessionModel {
  /// The bytes of the model's tables that grow with its events, from their storage
  /// (capacity × stride): the packed columns (`seq`, kind and store, cause) and line locations
  /// of every event, the per-store, per-line and per-root position lists, the far
  /// consequences and the effect table. Not in it: the events (a file-backed session holds
  /// none, only a bounded cache), the bounded caches of decoded blocks, and the tables of names
  /// (stores, kinds, source paths). What `BENCHMARKS.md` "Live sessions" and the bound test
  /// measure.
  package var indexBytes: Int {
    var bytes = columns.bytes + (pairKinds.capacity + pairStores.capacity) * MemoryLayout<Int32>.stride
    bytes += storage.indexBytes
    let int32 = MemoryLayout<Int32>.stride
    for list in storeEvents { bytes += list.storageBytes + MemoryLayout<PositionList>.stride }
    for list in storeActions { bytes += list.storageBytes + MemoryLayout<PositionList>.stride }
    for list in byLine.values { bytes += list.storageBytes + MemoryLayout<PositionList>.stride + MemoryLayout<Int>.stride }
    for (_, list) in farConsequences { bytes += list.capacity * int32 + 2 * int32 }
    for root in stateIndex.roots.values { bytes += root.snapshots.capacity * int32 + root.changes.storageBytes }
    bytes += effectTable.bytes
    for list in storeEffects { bytes += list.storageBytes + MemoryLayout<PositionList>.stride }
    return bytes
  }
}
