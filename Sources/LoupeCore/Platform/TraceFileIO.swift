#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The few POSIX calls trace files need, with `EINTR` retried and `errno` turned into text.
/// Platform code lives here so the reader and writer stay platform-free.
package enum TraceFileIO {
  /// An `errno` value.
  package struct Failure: Error, Equatable {
    var code: Int32
    package var message: String { TraceFileIO.message(code) }
  }

  /// The message for an `errno` value, e.g. `No space left on device`.
  package static func message(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }

  package static func openForReading(_ path: String) -> Result<Int32, Failure> {
    while true {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      if fd >= 0 {
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
          close(fd)
          return .failure(Failure(code: EISDIR))
        }
        return .success(fd)
      }
      if errno != EINTR { return .failure(Failure(code: errno)) }
    }
  }

  /// Creates or truncates `path` for appending.
  static func createForAppending(_ path: String) -> Result<Int32, Failure> {
    while true {
      let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
      if fd >= 0 { return .success(fd) }
      if errno != EINTR { return .failure(Failure(code: errno)) }
    }
  }

  /// The size of a regular file, or `nil` for pipes, terminals and the like.
  package static func regularFileSize(_ fd: Int32) -> Int? {
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(info.st_size)
  }

  /// `fstat(2)` of a regular file: device, inode, size and modification time; `nil` for
  /// anything else. Darwin's `struct stat` names the time `st_mtimespec` (sys/stat.h),
  /// Linux's `st_mtim`.
  package static func regularFileStatus(_ fd: Int32) -> (
    device: UInt64, inode: UInt64, size: Int, modifiedSeconds: Int, modifiedNanoseconds: Int
  )? {
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    #if canImport(Darwin)
      let modified = info.st_mtimespec
    #else
      let modified = info.st_mtim
    #endif
    return (UInt64(info.st_dev), UInt64(info.st_ino), Int(info.st_size), Int(modified.tv_sec), Int(modified.tv_nsec))
  }

  /// Reads up to `count` bytes into `buffer`; 0 at end of file.
  package static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Result<Int, Failure> {
    while true {
      let n = read(fd, buffer, count)
      if n >= 0 { return .success(n) }
      if errno != EINTR { return .failure(Failure(code: errno)) }
    }
  }

  /// Writes all of `bytes`, or returns how many were written before the error.
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Int32?) {
    guard let base = bytes.baseAddress else { return (0, nil) }
    var offset = 0
    while offset < bytes.count {
      let n = write(fd, base + offset, bytes.count - offset)
      if n > 0 {
        offset += n
      } else if n < 0, errno == EINTR {
        continue
      } else {
        return (offset, n == 0 ? EIO : errno)
      }
    }
    return (offset, nil)
  }

  static func truncate(_ fd: Int32, to length: Int) -> Bool {
    ftruncate(fd, off_t(length)) == 0
  }

  package static func closeDescriptor(_ fd: Int32) -> Int32? {
    // After EINTR the descriptor state is unspecified on Linux; do not retry.
    close(fd) == 0 ? nil : errno
  }
}
