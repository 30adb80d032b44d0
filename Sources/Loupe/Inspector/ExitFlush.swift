import Foundation
import Synchronization

/// Flushes started inspectors when the process exits (`atexit`), so events queued at the end
/// reach their clients and trace files — within each inspector's exit timeout, never hanging.
enum ExitFlush {
  private static let inspectors = Mutex<[ObjectIdentifier: Inspector]>([:])

  private static let installHandler: Void = {
    atexit {
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
