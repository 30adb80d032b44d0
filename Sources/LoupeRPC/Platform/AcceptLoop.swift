#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The accept loop both listeners run (`UnixSocketListener`, `TCPListener`) on their accept
/// thread, until the listening socket is shut down or `wake` is written to.
///
/// Each client is prepared (`prepare`) and handed to `onAccept`. When the process is out of
/// descriptors, a descriptor kept in reserve is freed to take the next client, which is sent
/// `refusal` (a frame it can read) and closed, and accepting backs off up to a second, so a
/// flood of connections cannot spin the thread.
enum AcceptLoop {
  static func run(
    fd: Int32, wake: Int32, refusal: [UInt8], isClosed: () -> Bool,
    prepare: (Int32) -> Void, onAccept: (Int32) -> Void
  ) {
    var reserve = open("/dev/null", O_RDONLY | O_CLOEXEC)
    defer { if reserve >= 0 { Posix.closeDescriptor(reserve) } }
    var backoff: Int32 = 0
    while Posix.wait(for: fd, events: Int16(POLLIN), orWake: wake) {
      let client = accept(fd, nil, nil)
      if client >= 0 {
        backoff = 0
        prepare(client)
        onAccept(client)
        if reserve < 0 { reserve = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        continue
      }
      let error = errno
      if error == EINTR || error == EAGAIN || error == ECONNABORTED { continue }
      if isClosed() { break }
      guard error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM else { continue }
      // Out of descriptors: free the reserve to take the client, tell it why, let it go.
      if reserve >= 0 {
        Posix.closeDescriptor(reserve)
        let refused = accept(fd, nil, nil)
        if refused >= 0 {
          Posix.setNonBlocking(refused)
          Posix.suppressSIGPIPE(refused)
          _ = refusal.withUnsafeBytes { Posix.sendNow(refused, $0) }
          Posix.closeDescriptor(refused)
        }
        reserve = open("/dev/null", O_RDONLY | O_CLOEXEC)
      }
      backoff = min(max(backoff * 2, 10), 1_000)
      guard Posix.sleep(milliseconds: backoff, orWake: wake) else { break }
    }
  }
}
