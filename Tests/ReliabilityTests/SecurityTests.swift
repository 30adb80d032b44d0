import Foundation
import LoupeCore
import LoupeRPC
import Synchronization
import Testing

extension ReliabilitySuites {
  /// The socket is private from its first instant, nothing else is listened on, and the process
  /// around it is left as it was.
  @Suite(.timeLimit(.minutes(2))) struct SecurityTests {
    @Test func theSocketIsPrivateEvenUnderAPermissiveUmask() throws {
      let directory = PrivateDirectory()
      let socket = directory.file("app.sock")
      let program = try ChildProcess(
        "/bin/sh", ["-c", "umask 000; exec '\(try BuiltProducts.path("loupe-examples"))' probe --hold"],
        environment: ["LOUPE": "unix:\(socket)"])
      defer { program.killIfRunning() }
      try program.stdout.wait(for: "probe: ready")
      var info = stat()
      #expect(lstat(socket, &info) == 0)
      #expect(info.st_mode & S_IFMT == S_IFSOCK)
      #expect(info.st_mode & 0o7777 == 0o600)
      #expect(info.st_uid == geteuid())
      var parent = stat()
      #expect(stat(directory.path, &parent) == 0 && parent.st_mode & 0o777 == 0o700)
    }

    /// Proof that there is no network listener: every socket the program holds — with a Unix
    /// listener, a connected client and a stdio client — is a Unix socket, none appears in the
    /// kernel's TCP, UDP or raw socket tables, and the only listening one is at the given path.
    @Test func theProgramHasNoNetworkSocket() throws {
      let probe = try ListeningProbe(["--hold"], environment: [:])
      let client = try RawConnection(socketPath: probe.socketPath)
      try client.initialize()
      _ = try client.call(SubscribeRequest().message(id: "s"))

      let stdio = try ChildProcess("loupe-examples", ["probe", "--hold"], environment: ["LOUPE": "stdio"], keepStdinOpen: true)
      defer { stdio.killIfRunning() }
      stdio.stdin?.write(Data(FrameEncoder.frame(InitializeRequest().message(id: 1).body)))
      try stdio.stderr.wait(for: "probe: ready")

      let network = NetworkTables.inodes()
      #expect(!network.unix.isEmpty)
      for pid in [probe.child.pid, stdio.pid] {
        let sockets = NetworkTables.socketInodes(of: pid)
        for inode in sockets {
          #expect(!network.inet.contains(inode), "socket \(inode) of \(pid) is a network socket")
          #expect(network.unix.contains(inode), "socket \(inode) of \(pid) is not a Unix socket")
        }
        let listening = sockets.intersection(network.listening)
        if pid == probe.child.pid {
          // One listener, at the path it was given (accepted connections carry its name too).
          #expect(listening.count == 1)
          #expect(Set(listening.compactMap { network.unixPaths[$0] }) == [probe.socketPath])
        } else {
          #expect(listening.isEmpty)  // stdio listens on nothing
        }
      }
      #expect(try probe.exit().termination == .exited(0))
    }

    @Test func aSocketPathTooLongIsRefusedWithItsReason() {
      let path = "/tmp/" + String(repeating: "x", count: 200)
      #expect(
        throws: SocketError(
          "Socket path '\(path)' is too long: a Unix socket path may have at most 107 bytes here (103 on Darwin, 107 on Linux); use a shorter one, such as /tmp/NAME.loupe"
        )) { try UnixSocketListener(path: path) }
    }

    /// The umask is process-wide: setting it to create the socket would, for that moment, give
    /// the program's own files the wrong mode (or undo a change another thread made).
    @Test func creatingASocketNeverTouchesTheProcessUmask() throws {
      let directory = PrivateDirectory()
      let original = umask(0o022)
      defer { umask(original) }
      let seen = Lock<Set<String>>([])
      let done = Atomic(false)
      let watcher = Thread {
        while !done.load(ordering: .relaxed) {
          if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") })
          {
            seen.withLock { _ = $0.insert(String(line.dropFirst(6)).trimmingCharacters(in: .whitespaces)) }
          }
        }
      }
      watcher.start()
      for index in 0..<300 {
        let listener = try UnixSocketListener(path: directory.file("s\(index % 4)"))
        listener.close()
      }
      done.store(true, ordering: .relaxed)
      #expect(seen.withLock { $0 }.subtracting(["0022"]).isEmpty, "umask values seen: \(seen.withLock { $0 })")
    }
  }
}

/// The kernel's socket tables (`/proc/net/…`), which list sockets by inode.
enum NetworkTables {
  struct Inodes {
    var inet: Set<String> = []
    var unix: Set<String> = []
    /// Bound Unix sockets: inode → path.
    var unixPaths: [String: String] = [:]
    /// Unix sockets accepting connections (`__SO_ACCEPTCON` in their flags).
    var listening: Set<String> = []
  }

  static func inodes() -> Inodes {
    var result = Inodes()
    for table in ["tcp", "tcp6", "udp", "udp6", "raw", "raw6", "udplite", "udplite6"] {
      guard let text = readProcFile("/proc/net/\(table)") else { continue }
      for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        if fields.count > 9 { result.inet.insert(String(fields[9])) }
      }
    }
    if let text = readProcFile("/proc/net/unix") {
      for line in text.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 6 else { continue }
        result.unix.insert(String(fields[6]))
        if let flags = Int(fields[3], radix: 16), flags & 0x10000 != 0 { result.listening.insert(String(fields[6])) }
        if fields.count > 7 { result.unixPaths[String(fields[6])] = String(fields[7]) }
      }
    }
    return result
  }

  /// All of a `/proc` file (their size reads as 0, so read to the end).
  static func readProcFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var data = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      data += buffer[0..<n]
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// The inodes of the sockets among `pid`'s open descriptors (`socket:[INODE]` links).
  static func socketInodes(of pid: Int32) -> Set<String> {
    let directory = "/proc/\(pid)/fd"
    var inodes: Set<String> = []
    for fd in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(fd)"),
        target.hasPrefix("socket:[")
      else { continue }
      inodes.insert(String(target.dropFirst(8).dropLast()))
    }
    return inodes
  }
}
