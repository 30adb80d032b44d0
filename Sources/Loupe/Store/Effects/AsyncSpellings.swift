// TCA's spellings for async work in effects: `Result { try await … }`, `Task.never()`, and
// `AnyHashableSendable` for cancel ids.

extension Result where Failure == any Error {
  /// The result of async work, as TCA spells it in effects:
  /// `await send(.factResponse(Result { try await client.fetch() }))`.
  public init(catching body: () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}

extension Task where Success == Never, Failure == Never {
  /// Suspends until the task is cancelled, then throws `CancellationError` (TCA's
  /// `Task.never()`): an effect that lives as long as its feature, such as one that holds a
  /// subscription open.
  ///
  /// In a store on a ``TestClock`` the effect counts as asleep while it waits, so a
  /// `TestStore` knows that it will send nothing until it is cancelled.
  public static func never() async throws -> Never {
    let activity = EffectActivity.current
    activity?.parked()
    let stream = AsyncStream<Never> { _ in }
    for await _ in stream {}
    activity?.woke()
    throw _Concurrency.CancellationError()
  }
}

/// A type-erased hashable and sendable value (TCA's `AnyHashableSendable`): a cancel id
/// made of values of several types.
///
/// ```swift
/// .cancellable(id: AnyHashableSendable(row.id))
/// ```
public struct AnyHashableSendable: Hashable, Sendable {
  /// The wrapped value.
  public let base: any Hashable & Sendable

  public init(_ base: some Hashable & Sendable) {
    if let wrapped = base as? AnyHashableSendable {
      self = wrapped
    } else {
      self.base = base
    }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(AnyHashable(base))
  }
}

extension AnyHashableSendable: CustomStringConvertible {
  public var description: String { String(describing: base) }
}
