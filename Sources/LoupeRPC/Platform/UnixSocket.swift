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

/// Why a Unix socket could not be set up.
public struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }

  static func system(_ call: String, _ path: String, _ code: Int32) -> SocketError {
    SocketError("\(call) '\(path)': \(String(cString: strerror(code)))")
  }
}

/// Unix-domain stream sockets: address handling, connecting, and the safety checks a server
/// socket path needs.
public enum UnixSocket {
  /// Connects to the socket at `path` and returns the connected descriptor (close-on-exec,
  /// non-blocking, ready for ``Connection``).
  public static func connect(to path: String) throws(SocketError) -> Int32 {
    let fd = socket(AF_UNIX, streamType, 0)
    guard fd >= 0 else { throw .system("socket", path, errno) }
    let result = try withAddress(path) { address, length in Posix.connectSocket(fd, address, length) }
    guard result == 0 else {
      let code = errno
      Posix.closeDescriptor(fd)
      throw .system("connect", path, code)
    }
    Posix.setCloseOnExec(fd)
    Posix.setNonBlocking(fd)
    Posix.suppressSIGPIPE(fd)
    return fd
  }

  /// Calls `body` with a `sockaddr_un` for `path`.
  static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws(SocketError) -> R {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard !bytes.isEmpty else { throw SocketError("The socket path is empty") }
    // sun_path holds 104 bytes on Darwin (sys/un.h), 108 on Linux, the final NUL included. An
    // iOS Simulator app's container path alone is longer: use a short path such as
    // /tmp/NAME.loupe (or LOUPE=unix, which picks /tmp/loupe-PID.sock).
    guard bytes.count < capacity else {
      throw SocketError(
        "Socket path '\(path)' is too long: a Unix socket path may have at most \(capacity - 1) bytes here "
          + "(103 on Darwin, 107 on Linux); use a shorter one, such as /tmp/NAME.loupe")    }
    guard !bytes.contains(0) else { throw SocketError("Socket path contains a NUL byte") }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: bytes)
      buffer[bytes.count] = 0
    }
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
  }

  /// Refuses a parent directory that others could use to swap the socket under us: it must be
  /// a directory, owned by us or root, and not writable by group or others unless sticky
  /// (like `/tmp`).
  static func checkParentDirectory(of path: String) throws(SocketError) {
    let parent = (path as NSString).deletingLastPathComponent
    let directory = parent.isEmpty ? "." : parent
    var info = stat()
    guard stat(directory, &info) == 0 else { throw .system("stat", directory, errno) }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw SocketError("'\(directory)' is not a directory") }
    let me = geteuid()
    guard info.st_uid == me || info.st_uid == 0 else {
      throw SocketError("Refusing to create a socket in '\(directory)': owned by another user (uid \(info.st_uid))")
    }
    let sharedWrite = info.st_mode & (S_IWGRP | S_IWOTH) != 0
    let sticky = info.st_mode & S_ISVTX != 0
    guard !sharedWrite || sticky else {
      throw SocketError("Refusing to create a socket in '\(directory)': writable by others and not sticky")
    }
  }

  /// Makes `path` free for a new socket: nothing there is fine; a stale socket of ours (nobody
  /// accepts on it) is removed; anything else — a symlink, a regular file, a live socket,
  /// another user's socket — is an error, never followed or deleted.
  static func clearStaleSocket(at path: String) throws(SocketError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return }
      throw .system("lstat", path, errno)
    }
    let type = info.st_mode & S_IFMT
    if type == S_IFLNK { throw SocketError("Refusing to use '\(path)': it is a symbolic link") }
    guard type == S_IFSOCK else { throw SocketError("Refusing to replace '\(path)': it exists and is not a socket") }
    guard info.st_uid == geteuid() else { throw SocketError("Refusing to replace '\(path)': owned by another user") }
    // Live or stale? A live server accepts the connection.
    if let fd = try? connect(to: path) {
      Posix.closeDescriptor(fd)
      throw SocketError("'\(path)' is in use by a running server")
    }
    // Remove only the very file we examined.
    var again = stat()
    guard lstat(path, &again) == 0, again.st_dev == info.st_dev, again.st_ino == info.st_ino else {
      throw SocketError("'\(path)' changed while being checked")
    }
    guard unlink(path) == 0 || errno == ENOENT else { throw .system("unlink", path, errno) }
  }
}
