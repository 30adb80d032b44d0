/// Dismisses the presented feature whose effect calls it (TCA's `@Dependency(\.dismiss)`):
/// its parent receives `.dismiss` (``PresentationAction/dismiss``), sent by that effect,
/// which clears the child's state and cancels its effects.
///
/// ```swift
/// @Dependency(\.dismiss) var dismiss
/// case .quitButtonTapped:
///   return .run { _ in await dismiss() }
/// ```
///
/// Outside the effects of a feature presented with `ifLet(\.$child, action: \.child)` it
/// reports an issue (``reportIssue(_:fileID:line:)``).
public struct DismissEffect: Sendable {
  let dismiss: (@MainActor @Sendable () -> Void)?

  init(_ dismiss: (@MainActor @Sendable () -> Void)?) {
    self.dismiss = dismiss
  }

  public func callAsFunction(fileID: StaticString = #fileID, line: UInt = #line) async {
    guard let dismiss else {
      reportIssue(
        "dismiss() was called from an effect of a feature that is not presented (ifLet on a PresentationState).",
        fileID: fileID, line: line)
      return
    }
    await dismiss()
  }

  /// The dismissal of the effect running now, if it belongs to a presented feature.
  @TaskLocal static var current: DismissEffect?
}

extension DependencyValues {
  /// Dismisses the presented feature whose effect reads it (see ``DismissEffect``).
  public var dismiss: DismissEffect {
    DismissEffect.current ?? DismissEffect(nil)
  }
}

/// Where a presented child's effects deliver their parent's `.dismiss`, while they start.
final class DismissTarget: @unchecked Sendable {
  // `@unchecked`: made, read and called on the main actor only (effects start there).
  let deliver: @MainActor (EffectRecord) -> Void

  init(deliver: @escaping @MainActor (EffectRecord) -> Void) {
    self.deliver = deliver
  }

  @TaskLocal static var current: DismissTarget?
}

/// A presented child's effects, lifted into the parent: the `run` effects they start can
/// dismiss the child.
struct DismissibleEffect<Action>: EffectTransform {
  let inner: Effect<Action>
  let dismissAction: Action

  func start(in runtime: RuntimeBase, scope: EffectScope<Action>) -> [EffectRecord] {
    let dismissAction = self.dismissAction
    let target = DismissTarget { record in scope.deliver(dismissAction, record, nil) }
    return DismissTarget.$current.withValue(target) { runtime.start(inner, in: scope) }
  }

  func withDependencies(_ update: @escaping @Sendable (inout DependencyValues) -> Void) -> Self {
    DismissibleEffect(inner: inner.withDependencies(update), dismissAction: dismissAction)
  }
}
