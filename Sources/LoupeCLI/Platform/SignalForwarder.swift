#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Dispatch
import Foundation
import LoupeRPC
import LoupeClient

/// While loupe is attached to a program it launched, Ctrl-C (SIGINT) and SIGTERM go to the
/// program, not to loupe: loupe keeps reading until the program ends, so the view and the
/// recording are complete, then exits with the program's status. A second signal kills the
/// program (SIGKILL).
final class SignalForwarder: @unchecked Sendable {
  // Unchecked: `count` is only touched on `queue`.
  private let queue = DispatchQueue(label: "loupe.signals")
  private var sources: [DispatchSourceSignal] = []
  private var count = 0

  /// - Parameter onSignal: what to do on the n-th signal (1-based), on a private queue.
  init(onSignal: @escaping @Sendable (_ signal: Int32, _ count: Int) -> Void) {
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      source.setEventHandler { [unowned self] in
        count += 1
        onSignal(number, count)
      }
      source.resume()
      sources.append(source)
    }
  }

  /// Forwards signals to `program`: the first as it came, the second as SIGKILL.
  ///
  /// Ctrl-C in a terminal already reaches every process of the foreground group, the
  /// program included; then the first SIGINT is not sent again.
  static func forwarding(to program: LaunchedProgram) -> SignalForwarder {
    let group = getpgrp()
    let terminalDeliversInterrupts = isatty(STDIN_FILENO) == 1 && tcgetpgrp(STDIN_FILENO) == group
      && getpgid(program.pid) == group
    return SignalForwarder { number, count in
      if count == 1 {
        if number == SIGINT, terminalDeliversInterrupts { return }
        program.kill(number)
      } else {
        program.kill(SIGKILL)
      }
    }
  }

  /// Stops handling signals and restores their default action.
  func cancel() {
    for source in sources { source.cancel() }
    sources = []
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}
