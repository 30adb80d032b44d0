/// Where a ``Connection`` is in its life, and what each of its two sides is doing: what may
/// happen next. Every value is read and changed under the connection's lock.
///
/// ```
/// open ──finish(), end of input──► finishing ──both sides done──► closed
///   │                                  │                           ▲
///   └──close(), overflow, failed write─┴─────► aborted ────────────┘
/// ```
///
/// A side that is done stays done: the connection is `closed` once the reader and the writer
/// both are, and only then (the descriptors are closed and `onClose` called then).
enum ConnectionLifecycle: Equatable {
  /// Frames are queued and written. The reader reads, unless the peer half-closed its end.
  case open
  /// Reading has stopped and nothing new is queued: the writer writes what is queued (with
  /// `drainsSource`, also everything the source still has), then ends.
  case finishing(drainsSource: Bool)
  /// Stopping now: queued output is dropped, and both sides stop as soon as they look.
  case aborted
  /// Both sides are done: the descriptors are closed and `onClose` was called.
  case closed

  /// Whether new frames are still taken (and whether the reader may go on reading).
  var takesFrames: Bool { self == .open }

  /// ``Connection/finish(drainingSource:)``: finishing, draining the source if this call or
  /// an earlier one asked to. An aborted or closed connection stays so.
  mutating func finish(drainingSource: Bool) {
    switch self {
    case .open: self = .finishing(drainsSource: drainingSource)
    case .finishing(let drains): self = .finishing(drainsSource: drains || drainingSource)
    case .aborted, .closed: break
    }
  }

  /// Stops now, unless already closed.
  mutating func abort() {
    if self != .closed { self = .aborted }
  }
}

/// The connection's reader.
enum ConnectionReader: Equatable {
  /// ``Connection/start(source:onFrame:onEndOfInput:onClose:)`` has not run: nothing is read.
  case notStarted
  /// Started, without a thread of its own yet: the shared waiting thread watches for the
  /// peer's first bytes (or the reader thread is being started).
  case waiting
  /// Its own thread reads frames.
  case reading
  /// Stopped for good; `hadThread` says whether it ever had a thread of its own.
  case done(hadThread: Bool)

  var isStarted: Bool { self != .notStarted }
  var isDone: Bool {
    if case .done = self { return true }
    return false
  }
  var hasHadThread: Bool { self == .reading || self == .done(hadThread: true) }

  /// Stopped, keeping whether it had a thread.
  mutating func end() {
    self = .done(hadThread: hasHadThread)
  }
}

/// The connection's writer, started only when there is first something to write.
enum ConnectionWriter: Equatable {
  /// No thread: nothing has needed writing yet.
  case notStarted
  /// Its thread is running; `idle` while it waits with nothing to write.
  case running(idle: Bool)
  /// Stopped for good, or never needed (`hadThread` false).
  case done(hadThread: Bool)

  var isDone: Bool {
    if case .done = self { return true }
    return false
  }
  var hasHadThread: Bool {
    switch self {
    case .notStarted, .done(hadThread: false): false
    case .running, .done(hadThread: true): true
    }
  }

  /// A writer that never started will never be needed: it is done without a thread.
  mutating func endIfNotStarted() {
    if self == .notStarted { self = .done(hadThread: false) }
  }
}
