import LoupeCore

/// Text for alerts and dialogs kept in state (TCA's `TextState`): equatable, and rendered in
/// events and diffs as the plain string.
///
/// ```swift
/// state.alert = AlertState { TextState("Delete this item?") }
/// ```
public struct TextState: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The text.
  public var string: String

  public init(_ string: some StringProtocol) {
    self.string = String(string)
  }

  public init(verbatim string: String) {
    self.string = string
  }

  public var description: String { string }
}

extension TextState: ExpressibleByStringInterpolation {
  public init(stringLiteral value: String) {
    self.init(verbatim: value)
  }
}

extension TextState: CustomLoupeRepresentable {
  public var customLoupeValue: Any { string }
}

/// What a button means to the system (TCA's `ButtonStateRole`).
public enum ButtonStateRole: Equatable, Hashable, Sendable {
  case cancel
  case destructive
}

/// What a button does when tapped: sends an action to the store, or nothing (just dismisses).
public struct ButtonStateAction<Action> {
  /// The action sent, if any.
  public let action: Action?

  /// Sends `action` (or nothing) when the button is tapped.
  public static func send(_ action: Action?) -> Self {
    Self(action: action)
  }
}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction: Hashable where Action: Hashable {}
extension ButtonStateAction: Sendable where Action: Sendable {}

extension ButtonStateAction: CustomLoupeRepresentable {
  public var customLoupeValue: Any { action as Any }
}

/// A button of an alert or dialog kept in state (TCA's `ButtonState`).
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
/// ButtonState(role: .cancel) { TextState("Cancel") }
/// ```
public struct ButtonState<Action> {
  public var role: ButtonStateRole?
  public var action: ButtonStateAction<Action>
  public var label: TextState

  public init(role: ButtonStateRole? = nil, action: ButtonStateAction<Action> = .send(nil), label: () -> TextState) {
    self.role = role
    self.action = action
    self.label = label()
  }

  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(role: role, action: .send(action), label: label)
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

/// Builds the buttons of an alert or dialog (TCA's `ButtonStateBuilder`).
@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] { [button] }
  public static func buildBlock(_ parts: [ButtonState<Action>]...) -> [ButtonState<Action>] { parts.flatMap { $0 } }
  public static func buildOptional(_ part: [ButtonState<Action>]?) -> [ButtonState<Action>] { part ?? [] }
  public static func buildEither(first part: [ButtonState<Action>]) -> [ButtonState<Action>] { part }
  public static func buildEither(second part: [ButtonState<Action>]) -> [ButtonState<Action>] { part }
  public static func buildArray(_ parts: [[ButtonState<Action>]]) -> [ButtonState<Action>] { parts.flatMap { $0 } }
}
