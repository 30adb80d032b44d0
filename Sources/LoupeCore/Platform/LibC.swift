#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The C library calls every module shares (memory, descriptors, errors, the clock), one
/// place for each platform's declarations. Modules call these instead of importing
/// Glibc/Darwin/Musl; `.ci/checks/11-platform-layer.sh` keeps it that way. Module-specific
/// calls (sockets, threads, spawning) live in that module's own `Platform/` folder.
package enum LibC {
  // MARK: Memory (string.h, identical on every platform)

  @inlinable package static func memcmp(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Int32 {
    #if canImport(Darwin)
      Darwin.memcmp(a, b, count)
    #elseif canImport(Glibc)
      Glibc.memcmp(a, b, count)
    #else
      Musl.memcmp(a, b, count)
    #endif
  }

  @inlinable package static func memchr(_ start: UnsafeRawPointer, _ byte: Int32, _ count: Int) -> UnsafeMutableRawPointer? {
    #if canImport(Darwin)
      Darwin.memchr(start, byte, count)
    #elseif canImport(Glibc)
      Glibc.memchr(start, byte, count)
    #else
      Musl.memchr(start, byte, count)
    #endif
  }

  @inlinable package static func memmove(_ to: UnsafeMutableRawPointer, _ from: UnsafeRawPointer, _ count: Int) {
    #if canImport(Darwin)
      _ = Darwin.memmove(to, from, count)
    #elseif canImport(Glibc)
      _ = Glibc.memmove(to, from, count)
    #else
      _ = Musl.memmove(to, from, count)
    #endif
  }

  /// `strcmp(a, b) == 0`.
  @inlinable package static func equalCStrings(_ a: UnsafePointer<CChar>, _ b: UnsafePointer<CChar>) -> Bool {
    strcmp(a, b) == 0
  }

  // MARK: Errors

  /// The calling thread's `errno`.
  package static var errno: Int32 {
    #if canImport(Darwin)
      Darwin.errno
    #elseif canImport(Glibc)
      Glibc.errno
    #else
      Musl.errno
    #endif
  }

  package static var interrupted: Int32 { EINTR }
  package static var wouldBlock: Int32 { EAGAIN }
  package static var ioError: Int32 { EIO }

  /// `true` for the errors that mean "call again" (`EINTR`, `EAGAIN`/`EWOULDBLOCK`).
  package static func isRetryable(_ code: Int32) -> Bool { code == EINTR || code == EAGAIN || code == EWOULDBLOCK }

  /// The text for an `errno` value, e.g. `No space left on device`.
  package static func message(_ code: Int32) -> String { TraceFileIO.message(code) }

  // MARK: Descriptors (unistd.h, fcntl.h)

  package static let standardInput: Int32 = STDIN_FILENO
  package static let standardOutput: Int32 = STDOUT_FILENO
  package static let standardError: Int32 = STDERR_FILENO

  /// `read(2)`: bytes read, 0 at end of input, -1 with ``errno`` set.
  package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
      Darwin.read(fd, buffer, count)
    #elseif canImport(Glibc)
      Glibc.read(fd, buffer, count)
    #else
      Musl.read(fd, buffer, count)
    #endif
  }

  /// `write(2)`: bytes written, -1 with ``errno`` set.
  package static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
      Darwin.write(fd, buffer, count)
    #elseif canImport(Glibc)
      Glibc.write(fd, buffer, count)
    #else
      Musl.write(fd, buffer, count)
    #endif
  }

  /// `pread(2)` at `offset`.
  package static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, at offset: Int) -> Int {
    pread(fd, buffer, count, off_t(offset))
  }

  /// `close(2)`; after `EINTR` the descriptor's state is unspecified, so it is never retried.
  @discardableResult
  package static func close(_ fd: Int32) -> Int32 {
    #if canImport(Darwin)
      Darwin.close(fd)
    #elseif canImport(Glibc)
      Glibc.close(fd)
    #else
      Musl.close(fd)
    #endif
  }

  /// `lseek(fd, offset, SEEK_SET)`; `false` when the descriptor cannot seek there.
  package static func seek(_ fd: Int32, to offset: Int) -> Bool {
    lseek(fd, off_t(offset), SEEK_SET) == off_t(offset)
  }

  /// Whether `path` names a regular file (`stat(2)`, symlinks followed).
  package static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// `isatty(3)`.
  package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// `fcntl(fd, F_DUPFD_CLOEXEC, 3)`: a close-on-exec copy numbered 3 or above, or -1.
  package static func duplicateCloseOnExec(_ fd: Int32) -> Int32 { fcntl(fd, F_DUPFD_CLOEXEC, 3) }

  /// `dup2(2)`: makes `target` refer to what `fd` refers to.
  @discardableResult
  package static func duplicate(_ fd: Int32, onto target: Int32) -> Int32 { dup2(fd, target) }

  /// Opens `/dev/null` read-only, close-on-exec (-1 on failure).
  package static func openNull() -> Int32 { open("/dev/null", O_RDONLY | O_CLOEXEC) }

  /// Creates `path` for writing only if nothing is there, not even a symbolic link
  /// (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0644 before the umask), close-on-exec: a fixed name
  /// in a shared directory that someone else may have planted. -1 with ``errno`` on failure.
  package static func createNew(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
  }

  /// Removes `path` if it is a regular file of this user's (a fixed name this user's earlier
  /// run left); `nil` when it is removed or was not there, otherwise why it was left alone (a
  /// symbolic link, someone else's file, not a regular file).
  package static func removeOwnFile(_ path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return errno == ENOENT ? nil : message(errno) }
    if (info.st_mode & S_IFMT) == S_IFLNK { return "it is a symbolic link" }
    guard (info.st_mode & S_IFMT) == S_IFREG else { return "it is not a regular file" }
    guard info.st_uid == geteuid() else { return "it belongs to another user" }
    return unlink(path) == 0 || errno == ENOENT ? nil : message(errno)
  }

  /// A new directory only this user can enter (mode 0700), with an unpredictable name that
  /// starts with `prefix`, in `parent` (`mkdtemp(3)`); `nil` with ``errno`` on failure.
  package static func makePrivateDirectory(in parent: String, prefix: String) -> String? {
    var template = Array(((parent.hasSuffix("/") ? parent : parent + "/") + prefix + "XXXXXX").utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
  }

  /// Creates or truncates `path` for writing (mode 0644 before the umask), close-on-exec;
  /// -1 with ``errno`` set on failure.
  package static func createForWriting(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  }

  // MARK: Process

  /// The process's limit on open descriptors (`getrlimit(RLIMIT_NOFILE)`, `ulimit -n`);
  /// `Int.max` when unlimited, 1024 when it cannot be read. Glibc's resource argument is the
  /// `__rlimit_resource_t` enum; Darwin's sys/resource.h takes an `int`.
  package static var descriptorLimit: Int {
    var limit = rlimit()
    #if canImport(Glibc)
      let status = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    #else
      let status = getrlimit(RLIMIT_NOFILE, &limit)
    #endif
    guard status == 0 else { return 1024 }
    return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY (Glibc: all ones; Darwin: 2^63 - 1) clamps to .max
  }

  package static var processID: Int32 { getpid() }

  /// `fflush(NULL)`: every C stream's buffered output leaves the process.
  package static func flushAllStreams() { _ = fflush(nil) }

  /// Blocks in `poll(2)` until `fd` is readable or hung up.
  package static func waitUntilReadable(_ fd: Int32) {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while poll(&entry, 1, -1) < 0, errno == EINTR {}
  }

  /// `pause(3)` for good: waits to be killed.
  package static func sleepForever() -> Never {
    while true { pause() }
  }

  /// `atexit(3)`: `handler` runs when the process calls `exit` (not when it is killed, nor when
  /// iOS suspends and later ends an app: `Loupe.flushRecording()` is for that).
  package static func runAtExit(_ handler: @escaping @convention(c) () -> Void) {
    _ = atexit(handler)
  }

  /// `exit(3)`.
  package static func exitProcess(_ status: Int32) -> Never { exit(status) }

  // MARK: Math (libm)

  package static func log2(_ value: Double) -> Double {
    #if canImport(Darwin)
      Darwin.log2(value)
    #elseif canImport(Glibc)
      Glibc.log2(value)
    #else
      Musl.log2(value)
    #endif
  }

  package static func exp2(_ value: Double) -> Double {
    #if canImport(Darwin)
      Darwin.exp2(value)
    #elseif canImport(Glibc)
      Glibc.exp2(value)
    #else
      Musl.exp2(value)
    #endif
  }

  // MARK: Clock

  /// Nanoseconds on the clock `ContinuousClock` reads, which keeps counting while the machine
  /// sleeps: `CLOCK_BOOTTIME` on Linux, `CLOCK_MONOTONIC` on Darwin (clock_gettime(3): "will
  /// continue to increment while the system is asleep").
  @inline(__always) package static func continuousNanoseconds() -> Int {
    var time = timespec()
    #if canImport(Darwin)
      _ = clock_gettime(CLOCK_MONOTONIC, &time)
    #else
      _ = clock_gettime(CLOCK_BOOTTIME, &time)
    #endif
    return time.tv_sec &* 1_000_000_000 &+ time.tv_nsec
  }
}
