import LoupeCore

/// Splits the bytes of a file descriptor into lines, reading fixed-size chunks.
///
/// Memory stays at one chunk plus the longest line seen (and shrinks back after it), whatever
/// the file's size. Lines end at `\n`; a `\r` before it is dropped, so CRLF files read the same.
package struct LineReader {
  package enum Next: Equatable {
    /// A complete line, as a range of ``buffer`` that stays valid until the next call.
    case line(Range<Int>)
    /// Bytes after the last line break, at the end of the input (a truncated last line).
    case partial(Range<Int>)
    /// A line longer than the limit, skipped without being kept; `length` bytes.
    case tooLong(length: Int)
    case end
  }

  package let fd: Int32
  package let chunkSize: Int
  package let maximumLineLength: Int
  package private(set) var buffer: [UInt8]
  private var start = 0
  private var end = 0
  /// `buffer[start..<scanned]` is known to hold no line break.
  private var scanned = 0
  private var atEOF = false
  /// File offset of `buffer[0]`.
  private var bufferOffset = 0
  /// File offset where the line last returned starts.
  package private(set) var lineOffset = 0
  /// File offset just past the line last returned (how far the input has been consumed).
  package var consumed: Int { bufferOffset + start }

  package init(fd: Int32, chunkSize: Int = 1 << 20, maximumLineLength: Int = 256 << 20) {
    self.fd = fd
    self.chunkSize = max(chunkSize, 16)
    self.maximumLineLength = max(maximumLineLength, 1)
    buffer = [UInt8](repeating: 0, count: self.chunkSize)
  }

  mutating package func next() -> Result<Next, TraceFileIO.Failure> {
    while true {
      if let newline = findNewline(from: max(start, scanned), to: end) {
        lineOffset = bufferOffset + start
        if newline - start > maximumLineLength {
          let length = newline - start
          start = newline + 1
          scanned = start
          return .success(.tooLong(length: length))
        }
        var lineEnd = newline
        if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let range = start..<lineEnd
        start = newline + 1
        scanned = start
        return .success(.line(range))
      }
      scanned = end
      if atEOF {
        guard start < end else { return .success(.end) }
        lineOffset = bufferOffset + start
        let range = start..<end
        start = end
        return .success(.partial(range))
      }
      if end - start >= maximumLineLength {
        return skipRestOfLine()
      }
      makeRoom()
      switch fill() {
      case .failure(let code): return .failure(code)
      case .success: continue
      }
    }
  }

  /// Continues at `offset` of the file (a regular file: a pipe cannot seek), dropping what is
  /// buffered. `false` when the descriptor cannot seek.
  mutating package func seek(to offset: Int) -> Bool {
    guard LibC.seek(fd, to: offset) else { return false }
    start = 0
    end = 0
    scanned = 0
    atEOF = false
    bufferOffset = offset
    lineOffset = offset
    return true
  }

  /// Reads ahead until at least `count` bytes are buffered or the input ends, and returns the
  /// buffered bytes without consuming them.
  mutating package func peek(atLeast count: Int) -> Result<ArraySlice<UInt8>, TraceFileIO.Failure> {
    while end - start < count, !atEOF {
      makeRoom()
      if case .failure(let failure) = fill() { return .failure(failure) }
    }
    return .success(buffer[start..<end])
  }

  /// Reads more input after `end`; sets `atEOF` when there is none.
  private mutating func fill() -> Result<Void, TraceFileIO.Failure> {
    let free = buffer.count - end
    let at = end
    let result = buffer.withUnsafeMutableBytes { raw in
      TraceFileIO.readSome(fd, into: raw.baseAddress! + at, count: free)
    }
    switch result {
    case .success(0): atEOF = true
    case .success(let n): end += n
    case .failure(let code): return .failure(code)
    }
    return .success(())
  }

  /// Moves the unconsumed bytes to the front, growing the buffer for a long line or shrinking
  /// it back once a long line is gone.
  private mutating func makeRoom() {
    let pending = end - start
    if buffer.count > chunkSize * 2, pending < chunkSize / 2 {
      var smaller = [UInt8](repeating: 0, count: chunkSize)
      smaller.withUnsafeMutableBufferPointer { to in
        buffer.withUnsafeBufferPointer { from in
          _ = to.initialize(fromContentsOf: from[start..<end])
        }
      }
      buffer = smaller
    } else if start > 0 {
      let from = start
      buffer.withUnsafeMutableBytes { raw in
        LibC.memmove(raw.baseAddress!, raw.baseAddress! + from, pending)
      }
    }
    bufferOffset += start
    scanned -= start
    start = 0
    end = pending
    if buffer.count - end < chunkSize / 2 {
      buffer.append(contentsOf: repeatElement(0, count: max(buffer.count, chunkSize)))
    }
  }

  /// Drops an over-long line up to and including its line break.
  private mutating func skipRestOfLine() -> Result<Next, TraceFileIO.Failure> {
    lineOffset = bufferOffset + start
    var length = end - start
    while true {
      bufferOffset += end
      start = 0
      end = 0
      scanned = 0
      if buffer.count > chunkSize { buffer = [UInt8](repeating: 0, count: chunkSize) }
      if case .failure(let code) = fill() { return .failure(code) }
      if atEOF { return .success(.tooLong(length: length)) }
      if let newline = findNewline(from: 0, to: end) {
        length += newline
        start = newline + 1
        scanned = start
        return .success(.tooLong(length: length))
      }
      length += end
    }
  }

  /// Whether `buffer[range]` holds only spaces, tabs and carriage returns (or nothing). Event
  /// lines start with `{`, so this usually looks at one byte.
  package func isBlank(_ range: Range<Int>) -> Bool {
    buffer.withUnsafeBufferPointer { bytes in
      for i in range {
        switch bytes[i] {
        case 0x20, 0x09, 0x0D: continue
        default: return false
        }
      }
      return true
    }
  }

  private func findNewline(from: Int, to: Int) -> Int? {
    guard from < to else { return nil }
    return buffer.withUnsafeBytes { raw in
      guard let found = LibC.memchr(raw.baseAddress! + from, 0x0A, to - from) else { return nil }
      return raw.baseAddress!.distance(to: UnsafeRawPointer(found))
    }
  }
}
