import LoupeSession

/// The `thread` events for a run of events the adapter does not report one by one (a burst
/// longer than ``DAPSession/reportLimit``): a store's net change over the run — started if it
/// was created and is alive at the end, exited if it was alive before and is destroyed at the
/// end — at most ``limit``, the latest. Decided from the index (kind and store), nothing read
/// back. An editor also asks for `threads` at every stop; these keep its list current while the
/// program runs.
enum SkippedThreads {
  static let limit = 200

  /// The stores whose threads started or exited in `range` of `model`, in the order of their
  /// last lifecycle event there.
  static func changes(in range: Range<Int>, of model: SessionModel, limit: Int = limit) -> [(store: String, started: Bool)] {
    // Per store: whether its first lifecycle event in the range created it, and its last one.
    var seen: [String: (createdFirst: Bool, lastCreated: Bool, last: Int)] = [:]
    for index in range {
      let kind = model.kind(at: index)
      guard kind == .storeCreated || kind == .storeDestroyed, let store = model.store(at: index) else { continue }
      let created = kind == .storeCreated
      if let known = seen[store] {
        seen[store] = (known.createdFirst, created, index)
      } else {
        seen[store] = (created, created, index)
      }
    }
    let changes = seen.filter { !($0.value.createdFirst && !$0.value.lastCreated) }  // began and ended within: nothing to say
      .sorted { $0.value.last < $1.value.last }
      .map { (store: $0.key, started: $0.value.lastCreated) }
    return Array(changes.suffix(limit))
  }
}
