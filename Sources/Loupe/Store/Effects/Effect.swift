/// Work a reducer asks the store to do after it returns: send an action, run async code,
/// cancel other effects.
///
/// ```swift
/// case .searchChanged(let query):
///   state.query = query
///   return .run { send in
///     let results = try await api.search(query)
///     await send(.searchResponse(results))
///   } catch: { error, send in
///     await send(.searchFailed("\(error)"))
///   }
///   .debounce(id: CancelID.search, for: .milliseconds(300))
/// ```
///
/// The store starts the effect right after the reducer, on behalf of the store whose reducer
/// returned it, and reports it as `effect.started`, then `effect.finished` or
/// `effect.cancelled`. Cancel ids are scoped to that store (see ``cancellable(id:cancelInFlight:)``).
public struct Effect<Action> {
  indirect enum Operation {
    case none
    /// Every case that the program writes carries the line that wrote it (CONTRACT §9).
    case send(Action, CodeLocation)
    case run(RunOperation<Action>)
    case merge([Effect<Action>])
    case concatenate([Effect<Action>])
    case cancellable(CancelKey, cancelInFlight: Bool, Effect<Action>, CodeLocation)
    case cancel(CancelKey, CodeLocation)
    case debounce(CancelKey, Duration, AnyClock?, Effect<Action>, CodeLocation)
    case transform(any EffectTransform<Action>)
  }

  let operation: Operation

  init(_ operation: Operation) { self.operation = operation }

  /// No effect.
  public static var none: Self { Self(.none) }

  /// Sends `action` to the store right after the current action, before `send` returns.
  ///
  /// Use it to share logic between actions; it is reported as an effect that sends once.
  /// `fileID`, `filePath` and `line` locate it in events (CONTRACT §9): leave them to their
  /// defaults.
  public static func send(
    _ action: Action, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line
  ) -> Self {
    Self(.send(action, CodeLocation(fileID: fileID, filePath: filePath, line: line)))
  }

  /// Runs `operation` in a new task; it sends actions back with `send`.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await _ in send.clock.timer(interval: .seconds(1)) {
  ///     await send(.timerTicked)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The task's priority.
  ///   - operation: The work. Throwing ends the effect as `failed` (unless it was cancelled).
  ///   - handler: Called with the error when `operation` throws anything but cancellation;
  ///     it can send actions too.
  ///   - fileID, filePath, line: Where the effect is created: the `source` of its
  ///     `effect.started` and of the actions it sends (CONTRACT §9). Leave them to their
  ///     defaults.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line
  ) -> Self {
    Self(.run(RunOperation(
      priority: priority, operation: operation, handler: handler,
      source: CodeLocation(fileID: fileID, filePath: filePath, line: line))))
  }

  /// Whether this is ``none``.
  public var isNone: Bool {
    if case .none = operation { true } else { false }
  }
}

struct RunOperation<Action> {
  let priority: TaskPriority?
  let operation: @Sendable (Send<Action>) async throws -> Void
  let handler: (@Sendable (any Error, Send<Action>) async -> Void)?
  /// The line that created the effect.
  let source: CodeLocation
}

/// How an effect reaches the store: the closure the store gives every `run` operation.
///
/// `await send(.action)` sends an action to the store that started the effect (after the
/// effect has been cancelled, actions are dropped). `send.clock` is the store's clock: use
/// it for timers and sleeps so tests can drive time with a ``TestClock``.
@MainActor
public struct Send<Action>: Sendable {
  let deliver: @MainActor (Action) -> Void

  /// The store's clock (see ``Store/init(initialState:name:bus:cancellation:clock:reducer:)``).
  public nonisolated let clock: AnyClock

  init(clock: AnyClock, deliver: @escaping @MainActor (Action) -> Void) {
    self.clock = clock
    self.deliver = deliver
  }

  /// Sends `action` to the store.
  public func callAsFunction(_ action: Action) {
    deliver(action)
  }
}
