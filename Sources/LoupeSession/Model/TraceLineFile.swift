import LoupeCore

/// Reads single lines of a trace file again by their offset (``TraceReader/Item/offset``), so
/// a reader can keep an index of a large trace instead of its events.
public final class TraceLineFile {
  public let path: String
  private let fd: Int32

  public init(path: String) throws(TraceError) {
    switch TraceFileIO.openForReading(path) {
    case .success(let fd): self.fd = fd
    case .failure(let failure): throw .cannotOpen(path: path, reason: failure.message)
    }
    self.path = path
  }

  private init(fd: Int32, path: String) {
    self.fd = fd
    self.path = path
  }

  /// Another reader of the same open file, with a read-ahead of its own, for another thread
  /// (``RootRebuildAside``): the file this one opened, even if its path names another by now.
  /// `nil` when the descriptor cannot be duplicated.
  package func secondReader() -> TraceLineFile? {
    let copy = LibC.duplicateCloseOnExec(fd)
    return copy >= 0 ? TraceLineFile(fd: copy, path: path) : nil
  }

  /// The file's size now, or `nil` when it is not a regular file (a pipe cannot be read back).
  public var size: Int? { TraceFileIO.regularFileSize(fd) }

  /// The bytes read last from ``read(offset:length:)``'s read-ahead (at `windowOffset`): a
  /// reader going through lines in order (a state rebuilt change after change) makes one
  /// system call per ``readAhead`` bytes, not one per line. The file only grows (a trace, or
  /// a live session's recording): bytes once read never change, and bytes written after the
  /// window was read are never taken from it.
  private var window: [UInt8] = []
  private var windowOffset = 0
  /// How much a short read reads ahead.
  static let readAhead = 256 << 10

  /// The `length` bytes at `offset` (fewer at the end of the file or on a read error).
  public func read(offset: Int, length: Int) -> [UInt8] {
    if offset >= windowOffset, offset + length <= windowOffset + window.count {
      return Array(window[(offset - windowOffset)..<(offset - windowOffset + length)])
    }
    if length < Self.readAhead / 4 {
      window = readAll(offset: offset, length: Self.readAhead)
      windowOffset = offset
      if length <= window.count { return Array(window[0..<length]) }
    }
    return readAll(offset: offset, length: length)
  }

  private func readAll(offset: Int, length: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: length)
    var done = 0
    while done < length {
      let count = bytes.withUnsafeMutableBytes { buffer in
        LibC.read(fd, buffer.baseAddress! + done, length - done, at: offset + done)
      }
      if count < 0, LibC.errno == LibC.interrupted { continue }
      if count <= 0 { break }
      done += count
    }
    return done == length ? bytes : Array(bytes[0..<done])
  }

  /// The start of the first line that starts at or after `offset` and before `end` (a line
  /// starts after a line break), or `nil` when none does.
  public func lineStart(atOrAfter offset: Int, before end: Int) -> Int? {
    if offset <= 0 { return end > 0 ? 0 : nil }
    var at = offset - 1
    while at < end {
      let bytes = read(offset: at, length: min(64 << 10, end - at))
      if bytes.isEmpty { return nil }
      if let newline = bytes.firstIndex(of: 0x0A) { return at + newline + 1 < end ? at + newline + 1 : nil }
      at += bytes.count
    }
    return nil
  }

  /// The line that starts at `offset`, without its line break (to the end of the file when it
  /// has none).
  public func line(at offset: Int) -> [UInt8] {
    var line: [UInt8] = []
    var at = offset
    while true {
      let bytes = read(offset: at, length: 64 << 10)
      if bytes.isEmpty { return line }
      if let newline = bytes.firstIndex(of: 0x0A) { return line + bytes[..<newline] }
      line += bytes
      at += bytes.count
    }
  }

  deinit { LibC.close(fd) }
}
