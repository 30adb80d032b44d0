#if canImport(Darwin)
  import Darwin
  private let streamType = SOCK_STREAM
#elseif canImport(Glibc)
  import Glibc
  private let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
#elseif canImport(Musl)
  import Musl
  private let streamType = SOCK_STREAM | SOCK_CLOEXEC
#endif

/// A loopback TCP endpoint, `HOST:PORT` (CONTRACT §14): HOST is `127.0.0.1`, `::1` (also
/// written `[::1]`) or `localhost` (127.0.0.1); any other host is refused, so a program never
/// listens where another machine could reach it. Clients on other machines or devices come
/// through a tunnel (`iproxy`, `ssh -L`) that ends on the loopback interface.
public struct LoopbackEndpoint: Sendable, Hashable, CustomStringConvertible {
  /// The host as written (`127.0.0.1`, `::1`, `localhost`).
  public var host: String
  public var port: Int

  /// Parses `HOST:PORT`; the error says what is wrong, for stderr.
  public init(parsing text: String) throws(SocketError) {
    guard let colon = text.lastIndex(of: ":") else {
      throw SocketError("'\(text)' is not HOST:PORT (e.g. 127.0.0.1:7777)")
    }
    var host = String(text[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    guard let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else {
      throw SocketError("'\(text)': the port must be a number from 0 to 65535 (0 picks a free one)")
    }
    guard ["127.0.0.1", "::1", "localhost"].contains(host.lowercased()) else {
      throw SocketError(
        "refusing to listen on '\(host)': only loopback hosts (127.0.0.1, ::1, localhost) are allowed; "
          + "reach a device or another machine through a tunnel (iproxy, ssh -L)")
    }
    self.host = host
    self.port = port
  }

  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  var isIPv6: Bool { host == "::1" }

  /// `HOST:PORT`, with brackets around an IPv6 host.
  public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// Calls `body` with the socket address of this endpoint (its family, address and length).
  func withAddress<R>(_ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    if isIPv6 {
      var address = sockaddr_in6()
      #if canImport(Darwin)
        address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
      #endif
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = in_port_t(UInt16(port).bigEndian)
      address.sin6_addr = in6addr_loopback
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(AF_INET6, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
      }
    }
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)  // INADDR_LOOPBACK
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(AF_INET, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
  }
}

/// TCP sockets on the loopback interface: listening (the program) and connecting (the tools).
public enum LoopbackTCP {
  /// A listening socket bound to `endpoint` (port 0: a free one), close-on-exec; returns it
  /// with the port it got.
  static func listen(on endpoint: LoopbackEndpoint, backlog: Int32) throws(SocketError) -> (fd: Int32, port: Int) {
    let fd = try makeSocket(endpoint)
    var on: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    let bound = endpoint.withAddress { _, address, length in bind(fd, address, length) }
    guard bound == 0, Glue.listen(fd, backlog) == 0 else {
      let code = errno
      Posix.closeDescriptor(fd)
      throw SocketError("cannot listen on \(endpoint): \(String(cString: strerror(code)))")
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let named = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else {
      let code = errno
      Posix.closeDescriptor(fd)
      throw SocketError("getsockname on \(endpoint): \(String(cString: strerror(code)))")
    }
    let port: UInt16 = withUnsafePointer(to: &storage) { pointer in
      if endpoint.isIPv6 {
        pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
      } else {
        pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
      }
    }
    return (fd, Int(port))
  }

  /// Connects to `endpoint`; the descriptor is close-on-exec, non-blocking and never raises
  /// SIGPIPE, ready for ``Connection``.
  public static func connect(to endpoint: LoopbackEndpoint) throws(SocketError) -> Int32 {
    let fd = try makeSocket(endpoint)
    let result = endpoint.withAddress { _, address, length in Posix.connectSocket(fd, address, length) }
    guard result == 0 else {
      let code = errno
      Posix.closeDescriptor(fd)
      throw SocketError("cannot connect to \(endpoint): \(String(cString: strerror(code)))")
    }
    prepareConnected(fd)
    return fd
  }

  /// What every connected TCP descriptor gets: close-on-exec, non-blocking, no SIGPIPE,
  /// `TCP_NODELAY` (a frame is sent when written, not held for more).
  static func prepareConnected(_ fd: Int32) {
    Posix.setCloseOnExec(fd)
    Posix.setNonBlocking(fd)
    Posix.suppressSIGPIPE(fd)
    var on: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
  }

  private static func makeSocket(_ endpoint: LoopbackEndpoint) throws(SocketError) -> Int32 {
    let fd = socket(endpoint.isIPv6 ? AF_INET6 : AF_INET, streamType, 0)
    guard fd >= 0 else { throw SocketError("socket for \(endpoint): \(String(cString: strerror(errno)))") }
    Posix.setCloseOnExec(fd)
    return fd
  }

  /// Names the enclosing type's methods would shadow.
  private enum Glue {
    static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
      #if canImport(Darwin)
        Darwin.listen(fd, backlog)
      #elseif canImport(Glibc)
        Glibc.listen(fd, backlog)
      #else
        Musl.listen(fd, backlog)
      #endif
    }
  }
}
