import Synchronization

/// A snapshot's state worked out when it is first read, on the reader's thread, then kept.
///
/// The store derives a periodic `state.snapshot` from the previous snapshot and the changes
/// reported since (the rebuilding rule of CONTRACT §10, which readers apply anyway) instead of
/// rendering its whole state on the program's thread: the event is emitted at once, with its
/// `seq`, and whoever reads its `state` first — the trace recorder's thread, a client's writer
/// thread — does the work. Thread-safe: the work runs once, under a lock.
package final class DeferredState: Sendable {
  private let storage: Mutex<Storage>
  /// About how many bytes the state will hold (``Event/approximateBytes`` before it is read).
  package let estimatedBytes: Int

  private enum Storage {
    case pending(@Sendable () -> (state: JSON, truncated: Bool))
    case done(state: JSON, truncated: Bool)
  }

  package init(estimatedBytes: Int, _ work: @escaping @Sendable () -> (state: JSON, truncated: Bool)) {
    storage = Mutex(.pending(work))
    self.estimatedBytes = estimatedBytes
  }

  /// The state, worked out now if it was not yet.
  package var value: (state: JSON, truncated: Bool) {
    storage.withLock { storage in
      switch storage {
      case .done(let state, let truncated): return (state, truncated)
      case .pending(let work):
        let (state, truncated) = work()
        storage = .done(state: state, truncated: truncated)
        return (state, truncated)
      }
    }
  }

  /// Whether the state has been worked out.
  package var isDone: Bool {
    storage.withLock { if case .done = $0 { true } else { false } }
  }
}
