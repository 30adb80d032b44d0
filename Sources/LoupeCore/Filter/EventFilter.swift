/// Which events a subscriber, a CLI view or a test assertion wants (CONTRACT §5).
///
/// Each field is a list of globs (see ``Glob``); an event passes when it matches every field
/// that is given, and a field matches when any of its globs does:
///
/// - `kinds` — the event's `kind`.
/// - `stores` — the event's `store`. Events that carry no store (`session.started`, `mark`)
///   are not excluded by this field.
/// - `actions` — keeps only `action.received` events whose `action` label matches.
/// - `paths` — keeps only `state.changed` events with at least one change whose path matches:
///   the change's own `path` (relative to its store: `count`) or its path from the root
///   store (`pages[id: 1].count`, see ``ScopePath``), so `pages*.count` finds the counts that
///   `forEach` children report as `count`.
///
/// `dropped` events pass every filter: a filter never hides that events were lost.
public struct EventFilter: Sendable, Hashable {
  public var kinds: [Glob]?
  public var stores: [Glob]?
  public var actions: [Glob]?
  public var paths: [Glob]?

  public init(kinds: [Glob]? = nil, stores: [Glob]? = nil, actions: [Glob]? = nil, paths: [Glob]? = nil) {
    self.kinds = kinds
    self.stores = stores
    self.actions = actions
    self.paths = paths
  }

  /// The filter that passes everything.
  public static let all = EventFilter()

  public var isEmpty: Bool { kinds == nil && stores == nil && actions == nil && paths == nil }

  public func matches(_ event: Event) -> Bool {
    if case .dropped = event.payload { return true }
    if let kinds, !kinds.anyMatches(event.kind) { return false }
    if let stores, let store = event.store, !stores.anyMatches(store) { return false }
    if let actions {
      guard case .actionReceived(let action) = event.payload, actions.anyMatches(action.action) else { return false }
    }
    if let paths {
      guard case .stateChanged(let change) = event.payload,
        change.changes.contains(where: { Self.path($0.path, store: change.store, matchesAny: paths) })
      else { return false }
    }
    return true
  }

  /// Whether a change at `path` of `store` matches one of `globs`, by its own path or by its
  /// path from the root store.
  public static func path(_ path: String, store: String, matchesAny globs: [Glob]) -> Bool {
    if globs.anyMatches(path) { return true }
    guard let fromRoot = ScopePath.fromRoot(path, store: store) else { return false }
    return globs.anyMatches(fromRoot)
  }

  /// Whether the filter can be decided from the `kind` alone, and if so the verdict for `kind`.
  /// Streaming readers use it to skip lines without parsing them.
  public func decidesByKind(_ kind: String) -> Bool? {
    if kind == Dropped.kind { return true }
    if let kinds, !kinds.anyMatches(kind) { return false }
    if stores != nil || actions != nil || paths != nil { return nil }
    return true
  }
}

// MARK: - JSON form

extension EventFilter {
  /// Decodes `{kinds?, stores?, actions?, paths?}`; `null` or a missing value means "any".
  /// Unknown members are ignored, as everywhere in the protocol.
  public init(json: JSON?) throws(EventDecodingError) {
    self.init()
    guard let json, !json.isNull else { return }
    guard case .object(let object) = json else {
      throw EventDecodingError("filter must be an object, not \(json.typeName)")
    }
    func globs(_ key: String) throws(EventDecodingError) -> [Glob]? {
      switch object[key] {
      case nil, .null?: return nil
      case .array(let items)?:
        var globs: [Glob] = []
        for item in items {
          guard let pattern = item.stringValue else {
            throw EventDecodingError("filter.\(key) must be an array of strings")
          }
          globs.append(Glob(pattern))
        }
        return globs
      default:
        throw EventDecodingError("filter.\(key) must be an array of strings")
      }
    }
    kinds = try globs("kinds")
    stores = try globs("stores")
    actions = try globs("actions")
    paths = try globs("paths")
  }

  public var json: JSON {
    var object = JSONObject()
    if let kinds { object.append("kinds", .array(kinds.map { .string($0.pattern) })) }
    if let stores { object.append("stores", .array(stores.map { .string($0.pattern) })) }
    if let actions { object.append("actions", .array(actions.map { .string($0.pattern) })) }
    if let paths { object.append("paths", .array(paths.map { .string($0.pattern) })) }
    return .object(object)
  }
}
