import Foundation

#if canImport(Darwin)
  import Darwin
  // sys/socket.h: SOCK_STREAM is an int; Darwin has no SOCK_CLOEXEC (FD_CLOEXEC is set after).
  private let streamType = SOCK_STREAM
#elseif canImport(Glibc)
  import Glibc
  private let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
#elseif canImport(Musl)
  import Musl
  private let streamType = SOCK_STREAM | SOCK_CLOEXEC
#endif

/// A listening Unix-domain socket that hands each accepted client to a callback.
///
/// Safe by construction: the socket file is created with mode `0600`; its parent directory
/// must not be writable by others (unless sticky); a symlink or foreign file planted at the
/// path is refused, never followed; a stale socket left by a dead server is removed after
/// checking nobody answers on it; and ``close()`` removes the file only if it is still the
/// one this listener created.
///
/// ```swift
/// let listener = try UnixSocketListener(path: "/tmp/app.loupe")
/// listener.start { fd in
///   let connection = try? Connection(input: fd, output: fd)
///   …
/// }
/// ```
public final class UnixSocketListener: @unchecked Sendable {
  // Unchecked: `closed` and `started` are guarded by `lock`; the rest is immutable.

  public let path: String
  private let fd: Int32
  private let device: UInt64
  private let inode: UInt64
  private let wake: (read: Int32, write: Int32)
  private let lock = NSLock()
  private var closed = false
  private var started = false

  /// Creates, binds and listens on a socket at `path`.
  public init(path: String, backlog: Int32 = 16) throws(SocketError) {
    self.path = path
    try UnixSocket.withAddress(path) { _, _ in () }  // a path that cannot be an address is refused first
    try UnixSocket.checkParentDirectory(of: path)
    try UnixSocket.clearStaleSocket(at: path)
    let fd = socket(AF_UNIX, streamType, 0)
    guard fd >= 0 else { throw .system("socket", path, errno) }
    do {
      try Self.bindPrivately(fd, at: path)
    } catch {
      Posix.closeDescriptor(fd)
      throw error
    }
    var info = stat()
    guard lstat(path, &info) == 0, chmod(path, 0o600) == 0, listen(fd, backlog) == 0 else {
      let code = errno
      Posix.closeDescriptor(fd)
      unlink(path)
      throw .system("listen", path, code)
    }
    self.fd = fd
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    do {
      wake = try Posix.makePipe()
    } catch {
      Posix.closeDescriptor(fd)
      unlink(path)
      throw SocketError(error.description)
    }
  }

  /// Binds `fd` at `path` so that the socket file is never, even briefly, accessible to others,
  /// without touching the process-wide umask (which the program's other threads rely on).
  /// bind() refuses an existing path, symlinks included, so nothing planted after the checks
  /// is followed.
  private static func bindPrivately(_ fd: Int32, at path: String) throws(SocketError) {
    #if os(Linux)
      // Linux: bind() creates the file with the socket inode's mode, set here with fchmod.
      guard fchmod(fd, 0o600) == 0 else { throw .system("fchmod", path, errno) }
      let bound = try UnixSocket.withAddress(path) { address, length in bind(fd, address, length) }
      guard bound == 0 else { throw .system("bind", path, errno) }
    #else
      // Darwin: fchmod(2) on a socket fails (EINVAL), and bind(2) creates the file with 0777
      // minus the umask. So bind inside a fresh 0700 directory (mkdtemp(3)) beside `path`,
      // chmod the socket 0600 there, then move it into place with renamex_np(RENAME_EXCL)
      // (stdio.h, macOS 10.12+ / iOS 10+), which refuses to replace anything planted meanwhile.
      let parent = (path as NSString).deletingLastPathComponent
      var template = Array(((parent.isEmpty ? "." : parent) + "/.loupe-XXXXXX").utf8CString)
      guard let made = mkdtemp(&template) else { throw .system("mkdtemp", path, errno) }
      let directory = String(cString: made)
      let temporary = directory + "/s"
      defer {
        unlink(temporary)
        rmdir(directory)
      }
      let bound = try UnixSocket.withAddress(temporary) { address, length in bind(fd, address, length) }
      guard bound == 0 else { throw .system("bind", path, errno) }
      guard chmod(temporary, 0o600) == 0 else { throw .system("chmod", path, errno) }
      guard renamex_np(temporary, path, UInt32(RENAME_EXCL)) == 0 else { throw .system("rename", path, errno) }
    #endif
  }

  /// Accepts clients on a background thread until ``close()``; each accepted descriptor is
  /// close-on-exec and non-blocking, and belongs to `onAccept`.
  ///
  /// When the process is out of descriptors (`EMFILE`, `ENFILE`) the waiting client is still
  /// taken — with a descriptor kept in reserve for that — sent `refusal` (a frame it can read)
  /// and closed, and the loop backs off (10 ms, doubling up to 1 s) instead of spinning on a
  /// listening socket that stays readable; it recovers by itself once descriptors are free.
  ///
  /// The accept thread runs `threadNiceness` nice levels below the process's main thread
  /// (``ThreadPriority/lowerCurrentThread(by:)``), and so do the threads `onAccept` starts.
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
          Posix.setCloseOnExec(client)
          Posix.setNonBlocking(client)
          Posix.suppressSIGPIPE(client)
        }, onAccept: onAccept)
    }
  }

  private var isClosed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return closed
  }

  /// Stops accepting and removes the socket file — only if it is still the one created here.
  /// Safe to call more than once and from an `atexit` handler.
  public func close() {
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { return }
    closed = true
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    var info = stat()
    if lstat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode {
      unlink(path)
    }
    shutdown(fd, Int32(SHUT_RDWR))
    if !started { releaseDescriptors() }  // otherwise the accept thread does, as it ends
  }

  private func releaseDescriptors() {
    Posix.closeDescriptor(fd)
    Posix.closeDescriptor(wake.read)
    Posix.closeDescriptor(wake.write)
  }
}
