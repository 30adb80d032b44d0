/// What a tool asks a live store to do (CONTRACT §16): the directory's side of `loupe/send` and
/// `loupe/setState`, decoded and carried out by the store layer.
public enum StoreControl: Sendable, Hashable {
  /// Send this action, in its rendered form, to the store.
  case send(action: JSON)
  /// Replace the root store's state with this one, in its rendered form.
  case setState(JSON)
}

/// Why a store could not do what a tool asked. Each case's text is what the tool shows
/// (`-32602`), so it names the store, the type and what to do.
public enum StoreControlError: Error, Sendable, Equatable, CustomStringConvertible {
  case unknownStore(String)
  /// The store cannot take this: its `Action` (or `State`) is not `Decodable`, `setState` on
  /// a scoped store, a scoped store the program never made a `Store` for.
  case notControllable(String)
  /// The value did not decode into the store's type.
  case decoding(String)
  /// This directory does not act on stores (a test's own directory).
  case unsupported

  public var description: String {
    switch self {
    case .unknownStore(let store): "No live store '\(store)'"
    case .notControllable(let message), .decoding(let message): message
    case .unsupported: "This program's store directory does not take actions from tools"
    }
  }
}

/// What a tool's request caused: the seq of the event that records it (`action.received`, or
/// the `mark` of a new state), and of the last event its processing emitted.
public struct StoreControlResult: Sendable, Hashable {
  public var seq: Int?
  public var through: Int?
  public init(seq: Int?, through: Int?) {
    self.seq = seq
    self.through = through
  }
}

extension StoreDirectory {
  /// Directories that cannot act on stores say so.
  public func control(
    _ store: String, _ operation: StoreControl, client: String
  ) async throws(StoreControlError) -> StoreControlResult {
    throw .unsupported
  }
}
