import LoupeCore

/// Optional state a parent presents, spelled `@Presents` as in TCA (a typealias of this
/// property wrapper; TCA's is a macro) or `@PresentationState`. Give `\.$alert` to ``Reducer/ifLet(_:action:then:)-(WritableKeyPath<State,PresentationState<ChildState>>,_,_)``.
///
/// ```swift
/// struct State: Equatable {
///   @PresentationState var alert: AlertState<Action.Alert>?
///   @PresentationState var detail: DetailFeature.State?
/// }
/// ```
///
/// It renders in events and diffs as the optional it wraps.
@propertyWrapper
public struct PresentationState<State> {
  public var wrappedValue: State?

  public init(wrappedValue: State?) {
    self.wrappedValue = wrappedValue
  }

  /// Nothing presented: `@PresentationState var alert: AlertState<Alert>?` needs no `= nil`.
  public init() {
    self.wrappedValue = nil
  }

  /// `$alert`: the wrapper, for `ifLet(\.$alert, …)`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

/// `@Presents var alert: AlertState<Alert>?`: TCA's spelling of ``PresentationState`` (a
/// macro there, the property wrapper itself here).
public typealias Presents<State> = PresentationState<State>

extension PresentationState: Equatable where State: Equatable {}
extension PresentationState: Hashable where State: Hashable {}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: CustomLoupeRepresentable {
  public var customLoupeValue: Any { wrappedValue as Any }
}

/// The actions of presented state (TCA's `PresentationAction`): the child's own, or its
/// dismissal.
public enum PresentationAction<Action> {
  /// Clears the presented state (the child's effects are cancelled).
  case dismiss
  /// An action of the presented child (or a button of an alert).
  case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}

extension PresentationAction: CasePathable {
  public struct AllCasePaths: CasePathList {
    public init() {}
    public var dismiss: CasePath<PresentationAction, Void> {
      CasePath(embed: { PresentationAction.dismiss }, extract: { if case .dismiss = $0 { () } else { nil } }, name: "dismiss")
    }
    public var presented: CasePath<PresentationAction, Action> {
      CasePath(
        embed: PresentationAction.presented, extract: { if case .presented(let action) = $0 { action } else { nil } },
        name: "presented")
    }
  }
}

extension CasePath {
  /// A presented child's case, without spelling `.presented`: `\.game.quitButtonTapped` for
  /// `\.game.presented.quitButtonTapped`, as TCA allows.
  public subscript<ChildAction: CasePathable, Next>(
    dynamicMember keyPath: KeyPath<ChildAction.AllCasePaths, CasePath<ChildAction, Next>>
  ) -> CasePath<Root, Next> where Value == PresentationAction<ChildAction> {
    let presented = self[dynamicMember: \PresentationAction<ChildAction>.AllCasePaths.presented]
    return presented[dynamicMember: keyPath]
  }
}
