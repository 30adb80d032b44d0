import LoupeCore

/// DAP thread ids for stores: each store id gets a number the first time it is seen and keeps
/// it for the whole session (a store destroyed and created again is the same thread).
/// Thread 1 is the session itself: events about no store (`session.started`, `mark`,
/// `dropped`) stop there.
struct DAPThreads: Sendable {
  static let sessionThread = 1
  static let sessionName = "(session)"

  private var ids: [String: Int] = [:]
  private var stores: [Int: String] = [:]
  private var next = 2

  /// The thread of `store` (`nil`: the session thread).
  mutating func id(for store: String?) -> Int {
    guard let store else { return Self.sessionThread }
    if let id = ids[store] { return id }
    let id = next
    next += 1
    ids[store] = id
    stores[id] = store
    return id
  }

  /// The store of thread `id`; `nil` for the session thread or an unknown id.
  func store(of id: Int) -> String? { stores[id] }

  func isKnown(_ id: Int) -> Bool { id == Self.sessionThread || stores[id] != nil }
}
