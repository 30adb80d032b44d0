import Loupe

/// The effects one `TestStore.send` started (TCA's `TestStoreTask`): cancel them, or wait for
/// them, in the test.
///
/// ```swift
/// let task = await store.send(.onAppear)
/// …
/// await task.cancel()
/// ```
@MainActor
public struct TestStoreTask: Sendable {
  /// The store's task for the same effects.
  public let rawValue: StoreTask

  /// Cancels the effects and waits until they have ended (so the test goes on after their
  /// `effect.cancelled`).
  public func cancel() async {
    rawValue.cancel()
    await rawValue.finish()
  }

  /// Waits until the effects, and those of the actions they sent, have ended.
  public func finish() async {
    await rawValue.finish()
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { rawValue.isCancelled }

  /// Whether every effect has ended.
  public var hasFinished: Bool { rawValue.hasFinished }
}
