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

  /// Makes a write to `fd` whose reader is gone an `EPIPE` error instead of a SIGPIPE, without
  /// touching the process's signal dispositions (a library must not: the program may rely on
  /// SIGPIPE's default, or have a handler of its own).
  ///
  /// - Darwin: `SO_NOSIGPIPE` on a socket (sys/socket.h), `F_SETNOSIGPIPE` on a pipe
  ///   (sys/fcntl.h, macOS 10.8+): per descriptor.
  /// - Linux: a descriptor option does not exist for pipes, and `MSG_NOSIGNAL` only applies to
  ///   `send(2)`. Every write Loupe makes to a peer happens on a thread of its own
  ///   (``ServiceThread``: a connection's writer, the accept loop), and those threads block
  ///   SIGPIPE in their own signal mask (``blockSIGPIPEOnThisThread()``), so the signal raised
  ///   by a write to a broken pipe or socket stays pending on that thread and the write
  ///   returns `EPIPE`. The refusal frames written on the accept thread use `send` with
  ///   `MSG_NOSIGNAL` as well.
  package static func suppressSIGPIPE(_ fd: Int32) {
    #if canImport(Darwin)
      var on: Int32 = 1
      if setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size)) != 0 {
        _ = fcntl(fd, F_SETNOSIGPIPE, 1)  // not a socket: a pipe or a file
      }
    #endif
  }

  /// Blocks SIGPIPE in the calling thread's signal mask (`pthread_sigmask(2)`): that thread's
  /// writes to a vanished peer fail with `EPIPE`. The process's dispositions and every other
  /// thread's mask are left alone. Called at the start of each ``ServiceThread``.
  package static func blockSIGPIPEOnThisThread() {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGPIPE)
    _ = pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Sends `bytes` on a socket without waiting and without SIGPIPE (`MSG_NOSIGNAL` on Linux;
  /// Darwin has no such flag, its sockets carry `SO_NOSIGPIPE`). Bytes sent, or -1.
  package static func sendNow(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Darwin)
      return send(fd, bytes.baseAddress, bytes.count, 0)
    #else
      return send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    #endif
  }

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
