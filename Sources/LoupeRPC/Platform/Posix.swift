#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Thin, retrying wrappers over the POSIX calls the transport needs. Platform code lives here
/// and in the other `Platform/` files (`.ci/checks/11-platform-layer.sh`); framing, messages and
/// connections know nothing of it.
package enum Posix {
  /// A failed system call: its name and `errno`.
  package struct Failure: Error, CustomStringConvertible {
    package var call: String
    package var errno: Int32
    package var description: String { "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
  }

  /// Ignores SIGPIPE for the whole process (once), so writing to a vanished peer is an
  /// `EPIPE` error instead of death.
  static let ignoreSIGPIPE: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
  }()

  /// A pipe whose both ends are close-on-exec: `(read, write)`.
  package static func makePipe() throws(Failure) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    // Atomically with pipe2 where there is one, so that a program another thread launches
    // meanwhile cannot inherit an end.
    if let pipe2 = pipe2 {
      guard pipe2(&fds, O_CLOEXEC) == 0 else { throw Failure(call: "pipe2", errno: errno) }
    } else {
      guard pipe(&fds) == 0 else { throw Failure(call: "pipe", errno: errno) }
      setCloseOnExec(fds[0])
      setCloseOnExec(fds[1])
    }
    return (fds[0], fds[1])
  }

  /// `pipe2(2)` (Linux; the Glibc module does not export it), looked up once. Darwin has no
  /// `pipe2` (unistd.h declares `pipe` only): `pipe` then `FD_CLOEXEC` on both ends.
  private static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
    #if canImport(Darwin)
      return nil
    #else
      guard let symbol = lookUpSymbol("pipe2") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    #endif
  }()

  /// `dlsym` over every loaded image. Darwin's "search everywhere" handle is `RTLD_DEFAULT`,
  /// `((void *) -2)` in dlfcn.h (NULL is no handle there); Glibc's `RTLD_DEFAULT` is
  /// `((void *) 0)`. Neither macro is imported into Swift.
  package static func lookUpSymbol(_ name: String) -> UnsafeMutableRawPointer? {
    #if canImport(Darwin)
      dlsym(UnsafeMutableRawPointer(bitPattern: -2), name)
    #else
      dlsym(nil, name)
    #endif
  }

  /// `write(2)` as is: bytes written or -1 (wake pipes, a refusal frame: no retry wanted).
  package static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
      Darwin.write(fd, bytes, count)
    #elseif canImport(Glibc)
      Glibc.write(fd, bytes, count)
    #else
      Musl.write(fd, bytes, count)
    #endif
  }

  /// `connect(2)`.
  static func connectSocket(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    #if canImport(Darwin)
      Darwin.connect(fd, address, length)
    #elseif canImport(Glibc)
      Glibc.connect(fd, address, length)
    #else
      Musl.connect(fd, address, length)
    #endif
  }

  static func setCloseOnExec(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFD)
    if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
  }

  package static func setNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL)
    if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
  }

  static func isNonBlocking(_ fd: Int32) -> Bool {
    let flags = fcntl(fd, F_GETFL)
    return flags >= 0 && flags & O_NONBLOCK != 0
  }

  /// Waits until `fd` is ready for `events` or `wake` is readable. Returns `false` when woken.
  static func wait(for fd: Int32, events: Int16, orWake wake: Int32, timeoutMilliseconds: Int32 = -1) -> Bool {
    var fds = [
      pollfd(fd: fd, events: events, revents: 0),
      pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      let result = poll(&fds, 2, timeoutMilliseconds)
      if result < 0 {
        if errno == EINTR { continue }
        return true  // let the caller's read or write report the problem
      }
      if fds[1].revents != 0 { return false }
      return true
    }
  }

  /// Reads what is available (at most `buffer.count` bytes). `0` is end of input; `nil` means
  /// try again (interrupted, or a non-blocking descriptor with nothing yet).
  static func readAvailable(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Failure>? {
    let count = read(fd, buffer.baseAddress, buffer.count)
    if count >= 0 { return .success(count) }
    let error = errno
    if error == EINTR || error == EAGAIN || error == EWOULDBLOCK { return nil }
    return .failure(Failure(call: "read", errno: error))
  }

  /// Writes all of `bytes`, waiting for the descriptor between chunks, unless `wake` becomes
  /// readable. On a blocking descriptor it writes at most `PIPE_BUF` bytes per call after
  /// `poll` said it is writable, so a write never blocks for long and can be abandoned.
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, orWake wake: Int32) -> WriteOutcome {
    let chunk = isNonBlocking(fd) ? bytes.count : Int(PIPE_BUF)
    var offset = 0
    while offset < bytes.count {
      guard wait(for: fd, events: Int16(POLLOUT), orWake: wake) else { return .abandoned }
      let count = write(fd, bytes.baseAddress! + offset, min(chunk, bytes.count - offset))
      if count >= 0 {
        offset += count
        continue
      }
      let error = errno
      if error == EINTR || error == EAGAIN || error == EWOULDBLOCK { continue }
      if error == EPIPE || error == ECONNRESET { return .peerGone }
      return .failed(Failure(call: "write", errno: error))
    }
    return .written
  }

  enum WriteOutcome {
    case written
    case abandoned
    case peerGone
    case failed(Failure)
  }

  /// Sleeps `milliseconds`, or until `wake` is readable; returns `false` when woken.
  static func sleep(milliseconds: Int32, orWake wake: Int32) -> Bool {
    var pollFD = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
    let result = poll(&pollFD, 1, milliseconds)
    return !(result > 0 && pollFD.revents != 0)
  }

  package static func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
  }
}
