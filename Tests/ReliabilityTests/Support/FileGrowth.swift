import Foundation

/// Waits, without sleeping, until a file has grown to a size: inotify wakes the wait on each
/// change in its directory, up to a deadline.
enum FileGrowth {
  static func wait(until path: String, hasAtLeast bytes: Int, timeout: Duration = .seconds(60)) throws {
    let watcher = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard watcher >= 0 else { throw TestFailure("inotify_init1 failed") }
    defer { close(watcher) }
    let directory = (path as NSString).deletingLastPathComponent
    guard inotify_add_watch(watcher, directory, UInt32(IN_MODIFY | IN_CREATE)) >= 0 else {
      throw TestFailure("cannot watch \(directory)")
    }
    let deadline = ContinuousClock.now + timeout
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      var info = stat()
      if stat(path, &info) == 0, Int(info.st_size) >= bytes { return }
      let remaining = deadline - .now
      guard remaining > .zero else { throw TestFailure("\(path) did not reach \(bytes) bytes within \(timeout)") }
      var poller = pollfd(fd: watcher, events: Int16(POLLIN), revents: 0)
      _ = poll(&poller, 1, Int32(max(1, remaining.seconds * 1000)))
      while buffer.withUnsafeMutableBytes({ read(watcher, $0.baseAddress, $0.count) }) > 0 {}  // drain
    }
  }
}
