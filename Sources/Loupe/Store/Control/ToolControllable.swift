import LoupeCore

/// A store a tool can act on (CONTRACT §16): what ``LiveStoreDirectory`` needs of a `Store`
/// whose types it does not know.
///
/// Decoding happens off the main actor (`nonisolated static`): the program's thread only
/// runs the action, or takes the state, as it would for `send`.
@MainActor
protocol ToolControllable: AnyObject {
  /// The action in its rendered form, decoded into the store's `Action`.
  nonisolated static func decodeAction(_ json: JSON) throws(StoreControlError) -> UncheckedSendable<Any>
  /// The state in its rendered form, decoded into the store's `State`.
  nonisolated static func decodeState(_ json: JSON) throws(StoreControlError) -> UncheckedSendable<Any>
  /// Sends a decoded action as a tool's; returns its `action.received` seq.
  func sendFromTool(_ action: UncheckedSendable<Any>, client: String) -> Int?
  /// Replaces a root store's state with a decoded one; returns the seq of the `mark` that
  /// names the change.
  func setStateFromTool(_ state: UncheckedSendable<Any>, client: String) throws(StoreControlError) -> Int?
  /// The state with redacted values put back (see ``RedactedValues``), for `setState`.
  func restoringRedactedValues(in incoming: JSON) -> JSON
}

extension Store: ToolControllable {
  nonisolated static func decodeAction(_ json: JSON) throws(StoreControlError) -> UncheckedSendable<Any> {
    try decode(Action.self, json, role: "action")
  }

  nonisolated static func decodeState(_ json: JSON) throws(StoreControlError) -> UncheckedSendable<Any> {
    try decode(State.self, json, role: "state")
  }

  private nonisolated static func decode(
    _ type: Any.Type, _ json: JSON, role: String
  ) throws(StoreControlError) -> UncheckedSendable<Any> {
    guard let decodable = type as? any Decodable.Type else {
      throw .notControllable(
        "\(TypeName.of(type)) is not Decodable: a tool can send an \(role) only to a store whose \(role == "action" ? "Action" : "State") conforms to Decodable (add `Codable`)")
    }
    do {
      return UncheckedSendable(try decodeValue(decodable, json))
    } catch {
      throw .decoding(error.description)
    }
  }

  private nonisolated static func decodeValue<T: Decodable>(
    _ type: T.Type, _ json: JSON
  ) throws(RenderedDecodingError) -> Any {
    try RenderedDecoder().decode(type, from: json)
  }

  func sendFromTool(_ action: UncheckedSendable<Any>, client: String) -> Int? {
    guard let action = action.value as? Action else { return nil }
    return runtime.sendingAsTool(client) {
      _ = sendFrom(action, node, nil, nil)
    }
  }

  func setStateFromTool(_ state: UncheckedSendable<Any>, client: String) throws(StoreControlError) -> Int? {
    guard let runtime = runtime as? StoreRuntime<State, Action>, node === runtime.root else {
      throw .notControllable(
        "loupe/setState replaces a root store's state, and '\(node.id)' is a scoped store: set the state of its root store '\(runtime.root.id)'")
    }
    guard let state = state.value as? State else { return nil }
    return runtime.replaceState(with: state, client: client)
  }

  func restoringRedactedValues(in incoming: JSON) -> JSON {
    let state = readState()
    let options = runtime.bus.renderOptions
    return RedactedValues.restore(
      in: incoming,
      shown: ValueRenderer.render(state, at: node.absolutePath, options: options),
      revealed: ValueRenderer.renderRevealingRedacted(state, at: node.absolutePath, options: options))
  }
}
