import LoupeCore
/// Reads a trace file (CONTRACT §7) as a stream: one chunk in memory at a time, however
/// large the file.
///
/// Opening validates line 1 and rejects anything that is not a trace with a clear
/// ``TraceError`` (an empty file, binary data, foreign JSON, another format, a newer version).
/// Then ``next(filter:decode:)`` yields the events in order, each with its line's raw bytes.
///
/// Damage is reported, never fatal:
/// - a **truncated last line** (the program died while writing it) is left out and described
///   in ``truncation``; every complete event before it is kept;
/// - a **malformed line in the middle** (not JSON, or not an event) is skipped and counted in
///   ``malformedLines``, with its line number, and reading goes on. One damaged line (say, from
///   a disk that filled up and freed again) must not hide the rest of a recording.
///
/// ```swift
/// let reader = try TraceReader(path: "bug.loupe")
/// while let item = try reader.next(filter: EventFilter(kinds: [Glob("effect.*")])) {
///   print(item.event!.seq)
/// }
/// if let truncation = reader.truncation { print(truncation) }
/// ```
public final class TraceReader {
  /// Reading limits.
  public struct Options: Sendable {
    /// Bytes read per `read(2)`.
    public var chunkSize: Int
    /// Lines longer than this are skipped as malformed instead of being held in memory.
    public var maximumLineLength: Int
    public init(chunkSize: Int = 1 << 20, maximumLineLength: Int = 256 << 20) {
      self.chunkSize = chunkSize
      self.maximumLineLength = maximumLineLength
    }
  }

  /// The end of a trace cut short inside a line.
  public struct Truncation: Sendable, Hashable, CustomStringConvertible {
    /// The line number of the incomplete line (1-based).
    public var line: Int
    /// The file offset where it starts.
    public var offset: Int
    /// How many bytes of it there are (all ignored).
    public var byteCount: Int

    public var description: String {
      let bytes = byteCount == 1 ? "1 byte" : "\(byteCount) bytes"
      return "the trace ends inside line \(line) (\(bytes) after the last complete event, ignored); the recording was cut short"
    }
  }

  /// A line that was skipped.
  public struct MalformedLine: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var offset: Int
    public var reason: String
    public var description: String { "line \(line): \(reason); skipped" }
  }

  /// What ``next(filter:decode:)`` yields.
  public struct Item {
    /// 1-based line number in the file.
    public var line: Int
    /// The line as it is in the file, without its line break.
    public var bytes: ArraySlice<UInt8>
    /// The event's `kind`.
    public var kind: String
    /// The event's `seq`.
    public var seq: Int
    /// Where the line starts in the file, in bytes (to read it again later, e.g. with
    /// ``TraceLineFile``).
    public var offset: Int = 0
    /// The decoded event; `nil` only when asked not to decode and the filter could be
    /// decided without it.
    public var event: Event?
  }

  /// One version of a regular file (see ``fileIdentity``).
  public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int
  }

  /// Malformed lines beyond this many are counted but not described.
  public static let malformedLinesKept = 100

  /// How the file was named to the reader, for messages.
  public let path: String
  public let header: TraceHeader
  /// The file's size when it is a regular file (for progress), else `nil`.
  public let fileSize: Int?
  /// The file's device, inode, size and modification time when it was opened, for a regular
  /// file (else `nil`): two readers that see the same identity read the same bytes.
  public let fileIdentity: FileIdentity?
  /// Complete lines ending before this offset are not checked (see ``trustLines(before:)``).
  @exclusivity(unchecked) private var trustedLength = 0
  /// The lines skipped and a truncated end, so far.
  private var damage = Damage()
  /// Set once the end of the file has been reached inside a line.
  public var truncation: Truncation? { damage.truncation }
  /// The first ``malformedLinesKept`` skipped lines.
  public var malformedLines: [MalformedLine] { damage.malformedLines }
  /// How many lines were skipped in all.
  public var malformedLineCount: Int { damage.malformedLineCount }
  /// How many bytes have been consumed so far.
  public var bytesRead: Int { lines.consumed }
  /// The number of the line last read.
  @exclusivity(unchecked) public private(set) var lineNumber = 1

  // No dynamic exclusivity checks on the state read for every line (they were ~9% of
  // `show --format json`'s CPU): a reader is used by one task at a time and no method hands
  // these out `inout` to code that could re-enter it.
  @exclusivity(unchecked) private var lines: LineReader
  /// Whether the line read last is a last line without its line break (for ``decode(_:)``).
  /// Set when that line is read, which is the end: no line comes after it (but a seek).
  @exclusivity(unchecked) private var lastLineIsLast = false
  private let ownsDescriptor: Bool
  private var closed = false

  /// Opens the trace at `path` and reads its header.
  public convenience init(path: String, options: Options = Options()) throws(TraceError) {
    let fd: Int32
    switch TraceFileIO.openForReading(path) {
    case .success(let opened): fd = opened
    case .failure(let failure): throw .cannotOpen(path: path, reason: failure.message)
    }
    try self.init(fileDescriptor: fd, name: path, closeWhenDone: true, options: options)
  }

  /// Reads a trace from an open descriptor (a pipe works too), naming it `name` in messages.
  public init(fileDescriptor fd: Int32, name: String, closeWhenDone: Bool = false, options: Options = Options()) throws(TraceError) {
    path = name
    ownsDescriptor = closeWhenDone
    fileSize = TraceFileIO.regularFileSize(fd)
    fileIdentity = TraceFileIO.identity(fd)
    lines = LineReader(fd: fd, chunkSize: options.chunkSize, maximumLineLength: options.maximumLineLength)
    do {
      header = try Self.readHeader(&lines, path: name)
    } catch {
      if closeWhenDone { _ = TraceFileIO.closeDescriptor(fd) }
      closed = true
      throw error
    }
  }

  deinit {
    if ownsDescriptor, !closed { _ = TraceFileIO.closeDescriptor(lines.fd) }
  }

  private static let maximumHeaderLength = 64 << 10

  private static func readHeader(_ lines: inout LineReader, path: String) throws(TraceError) -> TraceHeader {
    // Look at the start first, so a large binary or single-line file is refused without
    // reading it all.
    let head: ArraySlice<UInt8>
    switch lines.peek(atLeast: maximumHeaderLength + 1) {
    case .success(let bytes): head = bytes
    case .failure(let failure): throw .cannotRead(path: path, reason: failure.message)
    }
    if head.isEmpty { throw .notATrace(path: path, reason: "the file is empty") }
    let firstLine = head.firstIndex(of: 0x0A).map { head[..<$0] } ?? head
    if looksBinary(firstLine.prefix(4096), cut: firstLine.count > 4096) {
      throw .notATrace(path: path, reason: "it holds binary data, not JSON Lines")
    }
    if firstLine.count > maximumHeaderLength {
      throw .notATrace(path: path, reason: "its first line is not a trace header (it is over \(maximumHeaderLength / 1024) KiB long)")
    }
    let next: LineReader.Next
    switch lines.next() {
    case .success(let value): next = value
    case .failure(let failure): throw .cannotRead(path: path, reason: failure.message)
    }
    var line: ArraySlice<UInt8>
    let complete: Bool
    switch next {
    case .line(let range): line = lines.buffer[range]; complete = true
    case .partial(let range): line = lines.buffer[range]; complete = false
    case .end, .tooLong: throw .notATrace(path: path, reason: "its first line is not a trace header")
    }
    if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }  // a UTF-8 byte-order mark
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      throw .notATrace(path: path, reason: "its first line is empty")
    }
    do {
      return try TraceHeader(line: line)
    } catch {
      if !complete, TraceHeader.couldBeStart(of: line) { throw .truncatedHeader(path: path) }
      switch error {
      case .notATrace(let reason): throw .notATrace(path: path, reason: reason)
      case .unsupportedVersion(let version): throw .unsupportedVersion(path: path, version: version)
      }
    }
  }

  /// NUL bytes, other control characters than whitespace, or bytes that are not UTF-8.
  private static func looksBinary(_ bytes: ArraySlice<UInt8>, cut: Bool) -> Bool {
    for byte in bytes where byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return true }
    // A sample cut from a longer line may end inside a character: allow up to 3 bytes of it.
    var sample = Array(bytes)
    for _ in 0..<(cut ? 4 : 1) {
      if String(validating: sample, as: UTF8.self) != nil { return false }
      if sample.isEmpty { break }
      sample.removeLast()
    }
    return true
  }

  /// The next event that passes `filter`, or `nil` at the end of the trace.
  ///
  /// With `decode: false`, events whose fate the filter can decide from their `kind`, `store`
  /// and `action` members are yielded without being decoded (``Item/event`` is `nil`); their
  /// lines are still checked to be well-formed JSON objects with `seq`, `time` and `kind`.
  ///
  /// With `kindText: false`, an event yielded without decoding has an empty ``Item/kind``
  /// (its kind is in its line): for a reader that reads each line's bytes itself, the string
  /// would be made for nothing (`show`'s timeline, ~3% of its time).
  ///
  /// - Throws: ``TraceError/cannotRead(path:reason:)`` when reading fails.
  public func next(filter: EventFilter = .all, decode: Bool = true, kindText: Bool = true) throws(TraceError) -> Item? {
    while let line = try nextRaw() {
      if !decode, filter.isEmpty, !line.isLast, lines.consumed <= trustedLength, let item = trustedItem(line.range) {
        return item
      }
      // A last line without its line break is complete if it holds a whole event.
      if let item = item(line.range, filter: filter, decode: decode, kindText: kindText, isLast: line.isLast) { return item }
    }
    return nil
  }

  /// The next line that is not blank, as a range of the line reader's buffer (valid until the
  /// next read), and whether it is a last line without its line break; `nil` at the end of the
  /// trace. A line over the length limit is counted as malformed and skipped.
  private func nextRaw() throws(TraceError) -> (range: Range<Int>, isLast: Bool)? {
    while true {
      let next: LineReader.Next
      switch lines.next() {
      case .success(let value): next = value
      case .failure(let failure): throw .cannotRead(path: path, reason: failure.message)
      }
      switch next {
      case .end:
        return nil
      case .tooLong(let length):
        lineNumber += 1
        malformed("it is \(length) bytes long, over the limit of \(lines.maximumLineLength)")
      case .partial(let range):
        lineNumber += 1
        // Only ever the file's last line: nothing is read after it.
        lastLineIsLast = true
        if !lines.isBlank(range) { return (range, true) }
      case .line(let range):
        lineNumber += 1
        if !lines.isBlank(range) { return (range, false) }
      }
    }
  }

  /// Tells the reader that the complete lines before `offset` are known to be events — another
  /// reader of the same file (the same ``fileIdentity``) checked them all and found no damage —
  /// so ``next(filter:decode:)`` with no filter and `decode: false` yields them without
  /// checking them again: `replay` counts a trace's events before it streams them, and the
  /// stream then costs little more than reading the file. Only the start of such a line is
  /// read (for its `seq` and kind); a line that does not start the way Loupe writes events is
  /// checked as usual, and so is a last line without its line break.
  public func trustLines(before offset: Int) {
    trustedLength = offset
  }

  private func trustedItem(_ range: Range<Int>) -> Item? {
    let bytes = lines.buffer[range]
    guard let prefix = bytes.withUnsafeBufferPointer({ EventLinePrefix.parse($0) }) else { return nil }
    let kind = bytes.withUnsafeBufferPointer { line in
      String(decoding: UnsafeBufferPointer(rebasing: line[prefix.kind]), as: UTF8.self)
    }
    return Item(line: lineNumber, bytes: bytes, kind: kind, seq: prefix.seq, offset: lines.lineOffset, event: nil)
  }

  /// Decodes the event of `item`, which ``next(filter:decode:kindText:)`` just yielded without
  /// decoding it, before the next read: `nil` when the line is not an event, which is then
  /// reported as `next` reports it when decoding (a malformed line, or the truncated end of the
  /// trace).
  ///
  /// For readers that render most lines straight from their bytes and decode the rest
  /// (`loupe show`'s timeline).
  public func decode(_ item: Item) -> Event? {
    if let event = item.event { return event }
    return decodeFully(item.bytes, filter: .all, isLast: lastLineIsLast)?.event
  }

  /// Decodes every remaining event (for small traces and tests).
  public func readAll(filter: EventFilter = .all) throws(TraceError) -> [Event] {
    var events: [Event] = []
    while let item = try next(filter: filter) {
      if let event = item.event { events.append(event) }
    }
    return events
  }

  private func item(_ range: Range<Int>, filter: EventFilter, decode: Bool, kindText: Bool, isLast: Bool) -> Item? {
    let bytes = lines.buffer[range]
    // Lines a filter rules out by kind, store or action are dropped after a glance at their
    // first members (a truncated last line is always looked at in full, to report it).
    if !isLast, let needs = skimNeeds(filter), ruledOut(bytes, by: filter, needs: needs) { return nil }
    // Decoding validates the line anyway: no need to scan it first.
    if decode { return decodeFully(bytes, filter: filter, isLast: isLast) }
    let scanned = bytes.withUnsafeBufferPointer { EventLineScanner.scan($0) }
    guard let fields = scanned, let seq = fields.seq, fields.hasTime, case .plain(let kindRange) = fields.kind else {
      return decodeFully(bytes, filter: filter, isLast: isLast)
    }
    func kindString() -> String {
      bytes.withUnsafeBufferPointer { line in String(decoding: UnsafeBufferPointer(rebasing: line[kindRange]), as: UTF8.self) }
    }
    var kind: String?
    let verdict: Bool?
    if filter.kindsOnly {
      verdict = bytes.withUnsafeBufferPointer { line in filter.kindsAdmit(UnsafeBufferPointer(rebasing: line[kindRange])) }
    } else {
      let text = kindString()
      kind = text
      verdict = bytes.withUnsafeBufferPointer { line in filter.decide(kind: text, store: fields.store, action: fields.action, in: line) }
    }
    switch verdict {
    case false?: return nil
    case true? where !decode:
      let text = kind ?? (kindText ? kindString() : "")
      return Item(line: lineNumber, bytes: bytes, kind: text, seq: seq, offset: lines.lineOffset, event: nil)
    default: return decodeFully(bytes, filter: filter, isLast: isLast)
    }
  }

  /// What ``EventLineSkim`` must find for `filter` to rule a line out, or `nil` when it
  /// cannot rule any out by its members (no filter, or `dropped` events only).
  private func skimNeeds(_ filter: EventFilter) -> EventLineSkim.Needs? {
    guard filter.kinds != nil || filter.stores != nil || filter.actions != nil || filter.paths != nil else { return nil }
    return EventLineSkim.Needs(store: filter.stores != nil, action: filter.actions != nil)
  }

  /// Whether `filter` rules the line out by its `kind`, `store` and `action` members alone.
  private func ruledOut(_ bytes: ArraySlice<UInt8>, by filter: EventFilter, needs: EventLineSkim.Needs) -> Bool {
    bytes.withUnsafeBufferPointer { line in
      guard let head = EventLineSkim.head(line, needs: needs), case .plain(let kindRange) = head.kind else { return false }
      // The kinds first, on the bytes (no string for the many lines they rule out).
      let kindBytes = UnsafeBufferPointer(rebasing: line[kindRange])
      if !filter.kindsAdmit(kindBytes) { return true }
      if filter.kindsOnly { return false }
      let kind = String(decoding: UnsafeBufferPointer(rebasing: line[kindRange]), as: UTF8.self)
      return filter.decide(kind: kind, store: head.store, action: head.action, in: line) == false
    }
  }

  private func decodeFully(_ bytes: ArraySlice<UInt8>, filter: EventFilter, isLast: Bool) -> Item? {
    let event: Event
    do {
      event = try Event(jsonText: bytes)
    } catch {
      reject(bytes, reason: error.message, isLast: isLast)
      return nil
    }
    guard filter.matches(event) else { return nil }
    return Item(line: lineNumber, bytes: bytes, kind: event.kind, seq: event.seq, offset: lines.lineOffset, event: event)
  }

  // MARK: - Unchecked lines

  /// The next line as it is, unchecked, for readers in this module that look at a few members
  /// of a few kinds and check the rest themselves (``TraceStateIndex``): its bytes, where it
  /// starts in the file, and whether it is a last line without its line break. A line over the
  /// length limit is counted as malformed and skipped. `nil` at the end of the trace.
  package func nextUncheckedLine() throws(TraceError) -> (bytes: ArraySlice<UInt8>, offset: Int, isLast: Bool)? {
    guard let line = try nextRaw() else { return nil }
    return (lines.buffer[line.range], lines.lineOffset, line.isLast)
  }

  /// Continues reading at `offset` of the file, the start of a line preceded by `linesBefore`
  /// lines (the header's included), for readers that find their place by seeking
  /// (``TraceStateIndex``, `replay`'s catalog reading a trace in parts). `false` when the file
  /// cannot seek.
  public func seek(toOffset offset: Int, linesBefore: Int) -> Bool {
    guard lines.seek(to: offset) else { return false }
    lineNumber = linesBefore
    lastLineIsLast = false
    return true
  }

  /// What a reader of unchecked lines found wrong with the line it last read: a last line cut
  /// short (`isLast`), or a malformed one.
  package func reject(_ bytes: ArraySlice<UInt8>, reason: String, isLast: Bool) {
    damage.reject(line: lineNumber, offset: lines.lineOffset, byteCount: bytes.count, reason: reason, isLast: isLast)
  }

  /// Lines found damaged: a reader's own, or those found by readers of lines it read unchecked
  /// (``nextUncheckedLine()``) on other threads (``DecodedBatches``).
  package struct Damage {
    /// The first ``TraceReader/malformedLinesKept`` malformed lines, in order.
    package var malformedLines: [MalformedLine] = []
    package var malformedLineCount = 0
    package var truncation: Truncation?

    package init() {}

    mutating package func add(_ line: MalformedLine) {
      malformedLineCount += 1
      if malformedLines.count < TraceReader.malformedLinesKept { malformedLines.append(line) }
    }

    /// A line that is not an event: the trace's truncated end when it is a last line without
    /// its line break (`isLast`), else a malformed line.
    mutating package func reject(line: Int, offset: Int, byteCount: Int, reason: String, isLast: Bool) {
      if isLast {
        truncation = Truncation(line: line, offset: offset, byteCount: byteCount)
      } else {
        add(MalformedLine(line: line, offset: offset, reason: reason))
      }
    }

    /// Adds the damage of lines after those of this one.
    mutating package func add(_ later: Damage) {
      malformedLineCount += later.malformedLineCount
      malformedLines += later.malformedLines.prefix(TraceReader.malformedLinesKept - malformedLines.count)
      if let truncation = later.truncation { self.truncation = truncation }
    }
  }

  /// Counts `damage` as this reader's own: the lines it describes join those the reader skipped
  /// itself (over the length limit), in line order.
  package func absorb(_ found: Damage) {
    self.damage.malformedLineCount += found.malformedLineCount
    if !found.malformedLines.isEmpty {
      self.damage.malformedLines = Array(
        (damage.malformedLines + found.malformedLines).sorted { $0.line < $1.line }.prefix(Self.malformedLinesKept))
    }
    if let truncation = found.truncation { self.damage.truncation = truncation }
  }

  private func malformed(_ reason: String) {
    damage.add(MalformedLine(line: lineNumber, offset: lines.lineOffset, reason: reason))
  }
}
