
/// Writes a trace file (CONTRACT §7): the header line, then one event per line, exactly as
/// on the wire.
///
/// Every append reaches the file with a single `write(2)` of whole lines, with no buffering in
/// the process, so a crash or `kill -9` loses at most the line being written. When a write
/// fails part-way (a full disk), the writer cuts the file back to its last complete line (the
/// whole lines of a batch stay: ``appendPrefix(_:)`` says how many), so the trace stays readable; the error is thrown (and kept in ``failure``), never trapped.
///
/// ```swift
/// let writer = try TraceWriter(path: "bug.loupe", header: TraceHeader(program: "MyApp", pid: 42, startedAt: now))
/// try writer.append(event)
/// try writer.close()
/// ```
///
/// The appends of lines already encoded say where in the file their first line starts (the
/// lines follow each other from there), so a reader can index a trace still being written and
/// read its lines back by offset (a live session's ``TraceLineFile``).
///
/// The writer is safe to share between threads; appends are serialized.
public final class TraceWriter: Sendable {
  /// The path the trace is written to.
  public let path: String

  private struct State {
    var fd: Int32
    /// Bytes of complete lines in the file; a failed write is cut back to this length.
    var length: Int
    /// A failed write left a partial line that could not be cut back: the next write first
    /// ends it, so the damage stays on one line.
    var needsNewline = false
    var failure: TraceError?
    /// The encoding buffer, reused from batch to batch (`nil` while a batch fills it).
    var scratch: JSONWriter? = JSONWriter(capacity: 4096)
    /// The `source` texts of the locations events come from, encoded once.
    var sources: SourceTexts? = SourceTexts()
  }

  private let state: Lock<State>

  /// Creates (or truncates) the file at `path` and writes the header line.
  ///
  /// - Throws: ``TraceError/cannotOpen(path:reason:)`` when the file cannot be created (missing
  ///   directory, permissions, read-only file system); ``TraceError/cannotWrite(path:reason:)``
  ///   when the header cannot be written.
  public init(path: String, header: TraceHeader) throws(TraceError) {
    self.path = path
    let fd: Int32
    switch TraceFileIO.createForAppending(path) {
    case .success(let opened): fd = opened
    case .failure(let failure): throw .cannotOpen(path: path, reason: failure.message)
    }
    state = Lock(State(fd: fd, length: 0))
    var line = JSONWriter(capacity: 160)
    header.encode(into: &line)
    line.rawByte(0x0A)
    try write(line.bytes)
  }

  deinit {
    state.withLock { state in
      if state.fd >= 0 { _ = TraceFileIO.closeDescriptor(state.fd) }
      state.fd = -1
    }
  }

  /// The first write error, if any. Later appends are still attempted (a full disk may free up).
  public var failure: TraceError? { state.withLock { $0.failure } }

  /// Appends one event as one line.
  public func append(_ event: Event) throws(TraceError) {
    try append(CollectionOfOne(event))
  }

  /// Appends events, one line each, with a single write.
  public func append(_ events: some Sequence<Event>) throws(TraceError) {
    if let error = appendPrefix(events).error { throw error }
  }

  /// Appends events, one line each, with a single write, and says how many of them (from the
  /// first) are in the file: all of them, or — when the write fails part-way, as a disk fills
  /// up — those whose lines were written whole before it failed, with the error.
  public func appendPrefix(_ events: some Sequence<Event>) -> (written: Int, error: TraceError?) {
    if let result = events.withContiguousStorageIfAvailable({ appendPrefix(in: $0) }) { return result }
    return Array(events).withUnsafeBufferPointer { appendPrefix(in: $0) }
  }

  /// ``appendPrefix(_:)`` of a batch its caller owns (a recorder's): each event is moved out
  /// of the array to be encoded and moved back, where reading it in place made a copy of it
  /// (and released it after), which cost about a third of what encoding it does. The array
  /// is the same afterwards.
  package func appendPrefix(owned events: inout [Event]) -> (written: Int, error: TraceError?) {
    events.withUnsafeMutableBufferPointer { appendPrefix(in: UnsafeBufferPointer($0), movable: $0.baseAddress) }
  }

  /// Encodes and writes `events`; with `movable` (the same events, writable and owned by the
  /// caller) each is moved out to be encoded and back, instead of copied.
  private func appendPrefix(
    in events: UnsafeBufferPointer<Event>, movable: UnsafeMutablePointer<Event>? = nil
  ) -> (written: Int, error: TraceError?) {
    state.withLock { state in
      // Both are taken out of the state while the batch is encoded: `scratch` stays uniquely
      // referenced, and the loop below works on local values only (with `state` in reach,
      // each event was copied out of the batch before it was encoded).
      var scratch = state.scratch ?? JSONWriter(capacity: 4096)
      var sources = state.sources
      state.scratch = nil
      state.sources = nil
      scratch.reset()
      // Nothing below copies `scratch`: its writes need not check that its buffer is unshared.
      scratch.ownsStorage = isKnownUniquelyReferenced(&scratch.storage)
      defer {
        scratch.ownsStorage = false
        // A huge event grew the buffer: let it go rather than keep it for good.
        if scratch.storage.capacity > Self.writeChunk * 4 { scratch = JSONWriter(capacity: 4096) }
        state.scratch = scratch
        state.sources = sources
      }
      var written = 0
      var pending = 0
      for index in events.indices {
        if let movable {
          let event = (movable + index).move()
          event.encode(into: &scratch, sources: &sources)
          (movable + index).initialize(to: event)
        } else {
          events[index].encode(into: &scratch, sources: &sources)
        }
        scratch.rawByte(0x0A)
        scratch.needsComma = false  // the next event starts a new line, not a list
        pending += 1
        // Written in pieces, so a large batch never doubles in memory as text.
        if scratch.count >= Self.writeChunk {
          let result = scratch.withBytes { Self.write($0, path: path, state: &state) }
          scratch.reset()
          if case .failure(let error) = result.outcome { return (written + result.completeLines, error) }
          written += pending
          pending = 0
        }
      }
      let result = scratch.withBytes { Self.write($0, path: path, state: &state) }
      guard case .failure(let error) = result.outcome else { return (written + pending, nil) }
      return (written + result.completeLines, error)
    }
  }

  /// The most encoded bytes ``appendPrefix(_:)`` holds before writing them.
  public static let writeChunk = 256 << 10

  /// Appends one line of already-encoded event JSON (as received on the wire), unchanged.
  ///
  /// - Throws: ``TraceError/invalidLine(reason:)`` when `json` is empty or holds a line break.
  public func appendLine(_ json: some Collection<UInt8>) throws(TraceError) {
    // Copied first, so the checks below run on a concrete array (a generic `contains` over
    // `some Collection` is not specialized across modules and was most of `loupe record`'s
    // time).
    var bytes = [UInt8]()
    bytes.reserveCapacity(json.count + 1)
    bytes.append(contentsOf: json)
    try Self.checkLine(bytes[...])
    bytes.append(0x0A)
    try write(bytes)
  }

  /// Appends lines of already-encoded event JSON (as received on the wire), unchanged, with a
  /// single write: nothing is written when one of them is invalid.
  ///
  /// - Returns: the offset in the file of the first line.
  /// - Throws: ``TraceError/invalidLine(reason:)`` when a line is empty or holds a line break.
  @discardableResult
  public func appendLines(_ lines: [[UInt8]]) throws(TraceError) -> Int {
    var bytes = [UInt8]()
    bytes.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
    for line in lines {
      try Self.checkLine(line[...])
      bytes.append(contentsOf: line)
      bytes.append(0x0A)
    }
    return try write(bytes)
  }

  /// Appends bytes that are already complete trace lines, each ending with `\n` and checked
  /// by whoever made them (a `loupe/events` batch as it came over the wire), with one write;
  /// returns the offset in the file of the first line.
  @discardableResult
  package func append(checkedLines text: [UInt8]) throws(TraceError) -> Int {
    try write(text)
  }

  private static func checkLine(_ line: ArraySlice<UInt8>) throws(TraceError) {
    guard !line.isEmpty else { throw .invalidLine(reason: "an empty line") }
    for byte in line where byte == 0x0A || byte == 0x0D {
      throw .invalidLine(reason: "it contains a line break")
    }
  }

  /// Closes the file. Appends after closing throw ``TraceError/cannotWrite(path:reason:)``.
  public func close() throws(TraceError) {
    let result: Result<Void, TraceError> = state.withLock { state in
      guard state.fd >= 0 else { return .success(()) }
      let code = TraceFileIO.closeDescriptor(state.fd)
      state.fd = -1
      if let code { return .failure(.cannotWrite(path: path, reason: TraceFileIO.message(code))) }
      return .success(())
    }
    try result.get()
  }

  /// Writes `bytes` and returns the offset in the file where they start.
  @discardableResult
  private func write(_ bytes: [UInt8]) throws(TraceError) -> Int {
    let result = state.withLock { state in
      bytes.withUnsafeBytes { Self.write($0, path: path, state: &state) }
    }
    try result.outcome.get()
    return result.start
  }

  /// What a write did: its outcome, where its bytes start in the file, and how many complete
  /// lines of it are in the file.
  private struct WriteResult {
    var outcome: Result<Void, TraceError>
    var start = 0
    var completeLines = 0
  }

  private static func write(_ bytes: UnsafeRawBufferPointer, path: String, state: inout State) -> WriteResult {
    guard state.fd >= 0 else { return WriteResult(outcome: .failure(.cannotWrite(path: path, reason: "the trace is closed"))) }
    if bytes.isEmpty { return WriteResult(outcome: .success(())) }
    let fd = state.fd
    if state.needsNewline {
      let (written, code) = [UInt8(0x0A)].withUnsafeBytes { TraceFileIO.writeAll(fd, $0) }
      if let code { return WriteResult(outcome: fail(code, path: path, state: &state)) }
      state.needsNewline = false
      state.length += written
    }
    // The file is opened for appending and only this writer writes it: its bytes start at
    // the end of what was written so far.
    let start = state.length
    let (written, code) = TraceFileIO.writeAll(fd, bytes)
    guard let code else {
      state.length += written
      return WriteResult(outcome: .success(()), start: start)
    }
    // Keep the complete lines that made it (a filling disk may cut a batch anywhere) and cut
    // off the partial one, so the trace stays a prefix of complete events.
    var result = WriteResult(outcome: fail(code, path: path, state: &state), start: start)
    guard written > 0 else { return result }
    var complete = written
    while complete > 0, bytes[complete - 1] != 0x0A { complete -= 1 }
    if complete == written || TraceFileIO.truncate(fd, to: state.length + complete) {
      state.length += complete
      result.completeLines = bytes[0..<complete].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    } else {
      state.needsNewline = true  // the partial line stays; the next write ends it
      state.length += written
    }
    return result
  }

  private static func fail(_ code: Int32, path: String, state: inout State) -> Result<Void, TraceError> {
    let error = TraceError.cannotWrite(path: path, reason: TraceFileIO.message(code))
    if state.failure == nil { state.failure = error }
    return .failure(error)
  }
}
