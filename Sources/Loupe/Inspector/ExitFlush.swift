import Foundation
import LoupeCore

/// Finishes started inspectors when the process exits (`atexit`), so events queued at the end
/// reach their clients and trace files — within each inspector's exit timeout, never hanging.
/// See ``Inspector/finishAtExit()`` for what each does.
enum ExitFlush {
  private static let inspectors = Lock<[ObjectIdentifier: Inspector]>([:])

  private static let installHandler: Void = {
    LibC.runAtExit {
      ExitFlush.run()
    }
  }()

  static func register(_ inspector: Inspector) {
    installHandler
    inspectors.withLock { $0[ObjectIdentifier(inspector)] = inspector }
  }

  static func run() {
    let all = inspectors.withLock { inspectors in
      defer { inspectors = [:] }
      return Array(inspectors.values)
    }
    for inspector in all { inspector.finishAtExit() }
  }
}

/// Lets the exit handler sleep until something about its clients changes (a request
/// answered, a subscription, a connection closed) instead of polling.
final class ClientActivity: @unchecked Sendable {
  // Unchecked: `generation` is guarded by `condition`.
  private let condition = NSCondition()
  private var generation = 0

  /// Something changed: wake the waiter.
  func changed() {
    condition.lock()
    generation += 1
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until `isDone()` (checked at once and after every change, outside the lock) or
  /// `deadline`. Returns whether it is done.
  func wait(until deadline: ContinuousClock.Instant, for isDone: () -> Bool) -> Bool {
    while true {
      condition.lock()
      let seen = generation
      condition.unlock()
      if isDone() { return true }
      condition.lock()
      defer { condition.unlock() }
      while generation == seen {
        let remaining = deadline - .now
        guard remaining > .zero else { return false }
        _ = condition.wait(until: Date(timeIntervalSinceNow: remaining.timeInterval))
      }
    }
  }
}

extension Duration {
  /// The duration in seconds, as `Date` and `NSCondition` take it.
  var timeInterval: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
