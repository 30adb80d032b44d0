#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Foundation

/// A listening TCP socket on the loopback interface (CONTRACT §14) that hands each accepted
/// client to a callback, on a thread of its own, like ``UnixSocketListener``. The clients it
/// accepts must still prove they may talk (the token: `TokenGate`); this type only listens.
public final class TCPListener: @unchecked Sendable {
  // Unchecked: `closed` and `started` are guarded by `lock`; the rest is immutable.

  /// Where it listens, with the port it got (port 0 asked for a free one).
  public let endpoint: LoopbackEndpoint
  private let fd: Int32
  private let wake: (read: Int32, write: Int32)
  private let lock = NSLock()
  private var closed = false
  private var started = false

  /// Binds and listens on `endpoint`, a loopback host (``LoopbackEndpoint``).
  public init(endpoint: LoopbackEndpoint, backlog: Int32 = 16) throws(SocketError) {
    let (fd, port) = try LoopbackTCP.listen(on: endpoint, backlog: backlog)
    self.fd = fd
    self.endpoint = LoopbackEndpoint(host: endpoint.host, port: port)
    do {
      wake = try Posix.makePipe()
    } catch {
      Posix.closeDescriptor(fd)
      throw SocketError(error.description)
    }
  }

  /// Accepts clients on a background thread until ``close()``; each accepted descriptor is
  /// close-on-exec, non-blocking, never raises SIGPIPE, and belongs to `onAccept`. Out of
  /// descriptors, the waiting client is sent `refusal` and closed, and the loop backs off (as
  /// ``UnixSocketListener/start(refusal:threadNiceness:onAccept:)`` does).
  public func start(
    refusal: [UInt8] = [], threadNiceness: Int = 0, onAccept: @escaping @Sendable (Int32) -> Void
  ) {
    lock.lock()
    defer { lock.unlock() }
    guard !closed, !started else { return }
    started = true
    ServiceThread.start(name: "loupe.accept", niceness: threadNiceness) { [self] in
      defer { releaseDescriptors() }
      AcceptLoop.run(
        fd: fd, wake: wake.read, refusal: refusal, isClosed: { isClosed },
        prepare: { client in
          LoopbackTCP.prepareConnected(client)
        }, onAccept: onAccept)
    }
  }

  private var isClosed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return closed
  }

  /// Stops accepting. Safe to call more than once and from an `atexit` handler.
  public func close() {
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { return }
    closed = true
    var byte: UInt8 = 1
    _ = Posix.write(wake.write, &byte, 1)
    shutdown(fd, Int32(SHUT_RDWR))
    if !started { releaseDescriptors() }
  }

  private func releaseDescriptors() {
    Posix.closeDescriptor(fd)
    Posix.closeDescriptor(wake.read)
    Posix.closeDescriptor(wake.write)
  }
}
