import Foundation
import LoupeCore

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One thread that waits for the first input of many connections at once, so that a
/// connection that has sent nothing yet costs no thread of its own.
///
/// A server's idle connections (a client that connected and has not spoken, or never will)
/// would otherwise each hold a reader thread blocked in `poll`: 500 of them are 500 threads
/// started in a burst beside the program. Instead each waits here; when its descriptor becomes
/// readable (or hangs up), or its wake descriptor is latched because the connection is
/// closing, the entry is removed and its handler runs — on this thread, so a handler must be
/// quick: read once, then start a thread of its own if there is work.
///
/// ```swift
/// InputWatcher.shared(niceness: 0).watch(input: fd, wake: wakeFD) { readiness in
///   switch readiness {
///   case .input: …  // read what came; start the reader
///   case .woken: …  // the connection is closing
///   }
/// }
/// ```
final class InputWatcher: @unchecked Sendable {
  // Unchecked: `entries` and `started` are guarded by `lock`; the pipe never changes.

  enum Readiness: Sendable, Equatable {
    /// The input is readable, at its end, or failed: a read will not block.
    case input
    /// The wake descriptor is readable: the connection is closing.
    case woken
  }

  private struct Entry {
    var input: Int32
    var wake: Int32
    var handler: @Sendable (Readiness) -> Void
  }

  private let lock = NSLock()
  private var entries: [UInt64: Entry] = [:]
  private var nextKey: UInt64 = 0
  private var started = false
  private let niceness: Int
  /// Written to when `entries` changed, so the thread's `poll` looks again.
  private let changed: (read: Int32, write: Int32)

  /// The process's watcher, started on first use at the first caller's `niceness`; `nil` when
  /// it cannot be made (out of descriptors), and the caller then starts a reader of its own.
  static func shared(niceness: Int) -> InputWatcher? {
    sharedWatcher.withLock { watcher in
      if let watcher { return watcher }
      watcher = InputWatcher(niceness: niceness)
      return watcher
    }
  }

  private static let sharedWatcher = Lock<InputWatcher?>(nil)

  /// A watcher of its own (tests); `nil` only when the process is out of descriptors.
  init?(niceness: Int) {
    guard let pipe = try? Posix.makePipe() else { return nil }
    Posix.setNonBlocking(pipe.read)
    Posix.setNonBlocking(pipe.write)
    changed = pipe
    self.niceness = niceness
  }

  /// How many connections wait here now.
  var count: Int { lock.withLock { entries.count } }

  /// Calls `handler` once, on the watcher's thread, when `input` is readable (`.input`) or
  /// `wake` is (`.woken`, which wins when both are). Both descriptors must stay open until then.
  func watch(input: Int32, wake: Int32, _ handler: @escaping @Sendable (Readiness) -> Void) {
    let startsThread = lock.withLock {
      entries[nextKey] = Entry(input: input, wake: wake, handler: handler)
      nextKey &+= 1
      defer { started = true }
      return !started
    }
    if startsThread {
      ServiceThread.start(name: "loupe.idle", niceness: niceness) { [self] in run() }
    } else {
      poke()
    }
  }

  private func poke() {
    var byte: UInt8 = 1
    _ = write(changed.write, &byte, 1)  // a full pipe already says "look again"
  }

  private func run() {
    var fds: [pollfd] = []
    var keys: [UInt64] = []
    var drain = [UInt8](repeating: 0, count: 256)
    while true {
      fds.removeAll(keepingCapacity: true)
      keys.removeAll(keepingCapacity: true)
      fds.append(pollfd(fd: changed.read, events: Int16(POLLIN), revents: 0))
      lock.withLock {
        for (key, entry) in entries {
          keys.append(key)
          fds.append(pollfd(fd: entry.input, events: Int16(POLLIN), revents: 0))
          fds.append(pollfd(fd: entry.wake, events: Int16(POLLIN), revents: 0))
        }
      }
      let result = poll(&fds, nfds_t(fds.count), -1)
      if result < 0 {
        if errno == EINTR { continue }
        // Cannot wait (out of memory for the poll set): hand every connection its own reader
        // rather than leave one waiting for nothing.
        finishAll(as: .input)
        continue
      }
      if fds[0].revents != 0 {
        _ = drain.withUnsafeMutableBytes { read(changed.read, $0.baseAddress, $0.count) }
      }
      var ready: [(@Sendable (Readiness) -> Void, Readiness)] = []
      lock.withLock {
        for (position, key) in keys.enumerated() {
          let input = fds[1 + 2 * position].revents
          let wake = fds[2 + 2 * position].revents
          guard input != 0 || wake != 0, let entry = entries.removeValue(forKey: key) else { continue }
          ready.append((entry.handler, wake != 0 ? .woken : .input))
        }
      }
      for (handler, readiness) in ready { handler(readiness) }
    }
  }

  private func finishAll(as readiness: Readiness) {
    let all = lock.withLock {
      defer { entries = [:] }
      return Array(entries.values)
    }
    for entry in all { entry.handler(readiness) }
  }
}
