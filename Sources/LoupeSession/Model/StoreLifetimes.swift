import LoupeCore

/// One life of a store: the moments of its `store.created` and `store.destroyed` (positions in
/// a session, or `seq`s in a trace, as the tracker that holds it counts).
public struct StoreLife: Sendable, Hashable {
  public var created: Int
  public var destroyed: Int?

  public init(created: Int, destroyed: Int?) {
    self.created = created
    self.destroyed = destroyed
  }

  /// Whether the store lived right after `moment`.
  public func contains(_ moment: Int) -> Bool { created <= moment && (destroyed.map { $0 > moment } ?? true) }
}

/// When each store lived, and what it was (type, parent, identity): the one tracker of store
/// lifetimes, fed the lifecycle events (`store.created`, `store.destroyed`, `identity.changed`)
/// in order, each at a moment that never goes back. ``SessionModel`` counts moments in
/// positions, ``TraceStateIndex`` in `seq`s, ``TraceCatalog`` in lifecycle events.
///
/// A store created again before its `store.destroyed` starts a new life where the open one
/// ends.
package struct StoreLifetimes: Sendable {
  private var lives: [String: [StoreLife]] = [:]
  /// From each store's latest `store.created`.
  private var infos: [String: StoreInfo] = [:]
  /// Each store's identities, from the moment they began.
  private var identities: [String: [(from: Int, identity: String)]] = [:]
  /// Store ids in order of their first `store.created`.
  private var order: [String] = []

  package init() {}

  /// Takes `event` at `moment` if it is a lifecycle event; says whether it was.
  @discardableResult
  package mutating func apply(_ event: Event, at moment: Int) -> Bool {
    switch event.payload {
    case .storeCreated(let e):
      if lives[e.store] == nil { order.append(e.store) }
      if let last = lives[e.store]?.indices.last, lives[e.store]?[last].destroyed == nil {
        lives[e.store]?[last].destroyed = moment
      }
      lives[e.store, default: []].append(StoreLife(created: moment, destroyed: nil))
      infos[e.store] = StoreInfo(id: e.store, type: e.type, parent: e.parent, identity: e.identity)
      identities[e.store, default: []].append((moment, e.identity))
    case .storeDestroyed(let e):
      if let last = lives[e.store]?.indices.last, lives[e.store]?[last].destroyed == nil {
        lives[e.store]?[last].destroyed = moment
      }
    case .identityChanged(let e):
      infos[e.store]?.identity = e.identity
      identities[e.store, default: []].append((moment, e.identity))
    default:
      return false
    }
    return true
  }

  /// What a reader that starts in the middle of a trace knows of `store` from before.
  package mutating func start(_ store: String, with life: StoreLife) {
    if lives[store] == nil { order.append(store) }
    lives[store] = [life]
  }

  /// The lives of `store`, in order (empty for a store never created).
  package func lives(of store: String) -> [StoreLife] { lives[store] ?? [] }

  /// What `store` was at its latest `store.created` (with its latest identity).
  package func info(of store: String) -> StoreInfo? { infos[store] }

  /// Whether `store` lived right after `moment`; `nil` for a store never created.
  package func isAlive(_ store: String, at moment: Int) -> Bool? {
    guard let lives = lives[store], !lives.isEmpty else { return nil }
    return lives.contains { $0.contains(moment) }
  }

  /// The stores alive right after `moment`, each with its identity then, in order of the
  /// creation of the life they are in.
  package func stores(at moment: Int) -> [StoreInfo] {
    var alive: [(created: Int, info: StoreInfo)] = []
    for store in order {
      guard let life = lives[store]?.last(where: { $0.contains(moment) }), var info = infos[store] else { continue }
      if let identity = identities[store]?.last(where: { $0.from <= moment }) { info.identity = identity.identity }
      alive.append((life.created, info))
    }
    return alive.sorted { $0.created < $1.created }.map(\.info)
  }
}
