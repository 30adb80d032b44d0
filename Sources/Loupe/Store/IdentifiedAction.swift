/// An action for one element of an identified collection: what ``Reducer/forEach(_:action:element:)``
/// routes to the element with `id`.
///
/// ```swift
/// enum Action { case pages(IdentifiedAction<Int, PageFeature.Action>) }
/// store.send(.pages(.element(id: 2, action: .startTapped)))
/// ```
public enum IdentifiedAction<ID: Hashable, Action> {
  case element(id: ID, action: Action)

  /// The element's id.
  public var id: ID {
    switch self { case .element(let id, _): id }
  }

  /// The element's action.
  public var action: Action {
    switch self { case .element(_, let action): action }
  }
}

/// The identified action of a feature `R` with identifiable state.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action> where R.State: Identifiable

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where ID: Sendable, Action: Sendable {}
/// Decodable so that a tool can send it (CONTRACT §16, `loupe/send`) in the form it renders,
/// `{"element":{"id":1,"action":"toggled"}}`.
extension IdentifiedAction: Encodable where ID: Encodable, Action: Encodable {}
extension IdentifiedAction: Decodable where ID: Decodable, Action: Decodable {}
