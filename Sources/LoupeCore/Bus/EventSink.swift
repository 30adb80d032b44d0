/// Receives events as they are emitted.
///
/// A sink is called synchronously, in `seq` order, while the ``EventBus`` holds its lock, on
/// whatever thread emitted the event (usually the main actor). It must return quickly and must
/// not emit events itself: queue the event and do real work elsewhere.
public protocol EventSink: AnyObject, Sendable {
  /// Takes `event`: the last sink is handed the bus's own, which it may keep without a copy.
  func receive(_ event: consuming Event)
}

/// A live store, as `loupe/stores` lists it.
public struct StoreInfo: Sendable, Hashable {
  public var id: String
  public var type: String
  public var parent: String?
  public var identity: String
  public init(id: String, type: String, parent: String?, identity: String) {
    self.id = id
    self.type = type
    self.parent = parent
    self.identity = identity
  }
}

/// Why a state query failed.
public enum StateQueryError: Error, Sendable, Equatable, CustomStringConvertible {
  case unknownStore(String)
  case invalidPath(String)
  case noValueAtPath(store: String, path: String)

  public var description: String {
    switch self {
    case .unknownStore(let store): "No live store '\(store)'"
    case .invalidPath(let message): message
    case .noValueAtPath(let store, let path): "Store '\(store)' has no value at path '\(path)'"
    }
  }
}

/// What the inspector asks the runtime about its stores (`loupe/stores`, `loupe/state`).
/// The store layer provides it; tests may provide their own.
public protocol StoreDirectory: AnyObject, Sendable {
  /// The live stores, parents before children. Must be callable from any thread.
  func liveStores() -> [StoreInfo]
  /// The current state of `store` (or the value at `path` in it), rendered with the session's
  /// options, and the `seq` of the last event at the time it was read.
  func state(of store: String, path: StatePath?) async throws(StateQueryError) -> (seq: Int, state: JSON)
  /// Carries out a tool's `loupe/send` or `loupe/setState` on `store` for the client named
  /// `client`, and returns the seq of the event that records it (``StoreControl``).
  func control(_ store: String, _ operation: StoreControl, client: String) async throws(StoreControlError) -> StoreControlResult
}
