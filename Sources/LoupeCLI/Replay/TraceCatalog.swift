import LoupeCore

/// What `replay` learns from one pass over a trace before serving it: the stores alive at
/// its end (for `loupe/stores`) and its last `seq` (marks added during a replay follow it).
struct TraceCatalog {
  var header: TraceHeader
  var events = 0
  var lastSeq = 0
  /// The `time` of the last event (marks added during a replay come at it).
  var lastTime = 0.0
  /// Stores alive at the end of the trace, in order of creation (parents before children).
  var stores: [StoreInfo] = []

  init(path: String) throws(CommandFailure) {
    let reader = try TraceInput.open(path)
    header = reader.header
    var live: [String: (order: Int, info: StoreInfo)] = [:]
    var order = 0
    var last: [UInt8] = []
    while let item = try TraceInput.next(reader, decode: false) {
      events += 1
      last.removeAll(keepingCapacity: true)
      last.append(contentsOf: item.bytes)
      switch item.kind {
      case StoreCreated.kind, StoreDestroyed.kind, IdentityChanged.kind:
        guard let event = try? Event(jsonText: item.bytes) else { continue }
        switch event.payload {
        case .storeCreated(let e):
          order += 1
          live[e.store] = (order, StoreInfo(id: e.store, type: e.type, parent: e.parent, identity: e.identity))
        case .storeDestroyed(let e):
          live[e.store] = nil
        case .identityChanged(let e):
          live[e.store]?.info.identity = e.identity
        default:
          break
        }
      default:
        continue
      }
    }
    stores = live.values.sorted { $0.order < $1.order }.map(\.info)
    let lastEvent = try? Event(jsonText: last)
    lastSeq = lastEvent?.seq ?? 0
    lastTime = lastEvent?.time ?? 0
  }
}
