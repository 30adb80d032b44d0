import Foundation
import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

@Suite struct TraceReaderTests {
  let dir = ScratchDirectory()

  func read(_ bytes: [UInt8], chunkSize: Int = 1 << 20, maximumLineLength: Int = 256 << 20) throws -> (TraceReader, [Event]) {
    let path = dir.file("t.loupe", bytes)
    let reader = try TraceReader(path: path, options: .init(chunkSize: chunkSize, maximumLineLength: maximumLineLength))
    return (reader, try reader.readAll())
  }

  @Test(arguments: [16, 100, 1 << 20])
  func readsEveryKindWithAnyChunkSize(chunkSize: Int) throws {
    let (reader, events) = try read(TraceSamples.traceBytes(), chunkSize: chunkSize)
    #expect(reader.header == TraceSamples.header)
    #expect(events == TraceSamples.events)
    #expect(reader.truncation == nil)
    #expect(reader.bytesRead == TraceSamples.traceBytes().count)
    #expect(reader.fileSize == TraceSamples.traceBytes().count)
  }

  @Test(arguments: [16, 1 << 20])
  func crlfReadsTheSame(chunkSize: Int) throws {
    let (reader, events) = try read(TraceSamples.traceBytes(lineEnding: "\r\n"), chunkSize: chunkSize)
    #expect(events == TraceSamples.events)
    #expect(reader.truncation == nil)
  }

  @Test func blankLinesAndAByteOrderMarkAreIgnored() throws {
    var bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((TraceSamples.header.jsonText + "\n\n").utf8)
    bytes += Array((TraceSamples.events[0].jsonText + "\n   \n\r\n" + TraceSamples.events[1].jsonText + "\n\n").utf8)
    let (reader, events) = try read(bytes)
    #expect(events == Array(TraceSamples.events[0...1]))
    #expect(reader.malformedLineCount == 0)
  }

  @Test(arguments: [64, 1 << 20])
  func hugeLinesAreRead(chunkSize: Int) throws {
    let label = String(repeating: "é🙂x", count: 700_000)  // ~5.6 MB
    let events = [
      TraceSamples.events[0],
      Event(seq: 2, time: 1, payload: .mark(Mark(label: label))),
      Event(seq: 3, time: 2, payload: .mark(Mark(label: "after"))),
    ]
    let (reader, read) = try read(TraceSamples.traceBytes(events), chunkSize: chunkSize)
    #expect(read == events)
    #expect(reader.malformedLineCount == 0)
  }

  @Test func linesOverTheLimitAreSkippedAndReported() throws {
    let events = [
      TraceSamples.events[0],
      Event(seq: 2, time: 1, payload: .mark(Mark(label: String(repeating: "x", count: 5000)))),
      Event(seq: 3, time: 2, payload: .mark(Mark(label: "after"))),
    ]
    let (reader, read) = try read(TraceSamples.traceBytes(events), chunkSize: 64, maximumLineLength: 1000)
    #expect(read.map(\.seq) == [1, 3])
    #expect(reader.malformedLineCount == 1)
    let longLine = events[1].jsonText.utf8.count
    #expect(reader.malformedLines.map(\.description) == ["line 3: it is \(longLine) bytes long, over the limit of 1000; skipped"])
  }

  /// Lines another reader of the same file checked are yielded from their start alone; a line
  /// in that part that does not start the way Loupe writes events, the lines after it and a
  /// cut-short last line are checked as usual.
  @Test(arguments: [64, 1 << 20])
  func trustedLinesAreYieldedWithoutBeingCheckedAgain(chunkSize: Int) throws {
    var text = TraceSamples.header.jsonText + "\n"
    for event in TraceSamples.events.prefix(3) { text += event.jsonText + "\n" }
    text += "not json at all\n"  // not an event's start: checked even when trusted
    text += #"{"seq":50,"time":1,"kind":"mark",damaged"# + "\n"  // an event's start: trusted means trusted
    text += "\n" + TraceSamples.events[3].jsonText + "\n"
    let trustedEnd = text.utf8.count
    text += #"{"seq":99,"time":1,"kind":"mark""# + "\n"  // after the trusted part: checked
    text += TraceSamples.events[4].jsonText + "\n"
    text += #"{"seq":100,"time":1,"kind":"mark","label":"#  // cut short
    let path = dir.file("t.loupe", text: text)
    func items(trusting: Bool) throws -> (TraceReader, [String]) {
      let reader = try TraceReader(path: path, options: .init(chunkSize: chunkSize))
      if trusting { reader.trustLines(before: trustedEnd) }
      var items: [String] = []
      while let item = try reader.next(decode: false) {
        items.append("\(item.line) \(item.offset) \(item.seq) \(item.kind) \(String(decoding: item.bytes, as: UTF8.self))")
      }
      return (reader, items)
    }
    let (checking, checked) = try items(trusting: false)
    let (trusting, trusted) = try items(trusting: true)
    #expect(checking.fileIdentity != nil && checking.fileIdentity == trusting.fileIdentity)
    #expect(trusted.count == checked.count + 1)
    #expect(trusted.filter { !$0.contains("damaged") } == checked)
    #expect(trusted.contains { $0.hasPrefix("6 ") && $0.hasSuffix(#"{"seq":50,"time":1,"kind":"mark",damaged"#) })
    #expect(checking.malformedLineCount == 3)
    #expect(trusting.malformedLines.map(\.line) == [5, 9])
    #expect(trusting.truncation == checking.truncation)
    #expect(trusting.truncation?.line == 11)
  }

  @Test func malformedLinesInTheMiddleAreSkippedCountedAndNumbered() throws {
    var text = TraceSamples.header.jsonText + "\n"
    text += TraceSamples.events[0].jsonText + "\n"
    text += #"{"seq":2,"time":1,"kind":"mark""# + "\n"  // cut short, then the writer went on
    text += TraceSamples.events[1].jsonText + "\n"
    text += #"{"seq":4,"time":1,"kind":"store.created"}"# + "\n"  // a known kind missing its fields
    text += "not json at all\n"
    text += TraceSamples.events[2].jsonText + "\n"
    let (reader, events) = try read(Array(text.utf8))
    #expect(events.map(\.seq) == [1, 2, 3])
    #expect(reader.malformedLineCount == 3)
    #expect(
      reader.malformedLines.map(\.description) == [
        "line 3: Invalid JSON: Unterminated object at byte 31; skipped",
        "line 5: store.created: field 'store' must be a string (missing); skipped",
        "line 6: Invalid JSON: Invalid literal at byte 0; skipped",
      ])
    #expect(reader.truncation == nil)
  }

  @Test func unknownKindsAndFieldsAreKept() throws {
    let line = #"{"seq":1,"time":0.5,"kind":"future.kind","store":"S#1","x":{"y":[1]}}"#
    let (_, events) = try read(Array((TraceSamples.header.jsonText + "\n" + line + "\n").utf8))
    #expect(events == [Event(seq: 1, time: 0.5, payload: .unknown(kind: "future.kind", fields: ["store": "S#1", "x": ["y": [1]]]))])
  }

  // MARK: - Not a trace

  func openError(_ bytes: [UInt8], name: String = "t.loupe") -> TraceError? {
    let path = dir.file(name, bytes)
    do {
      _ = try TraceReader(path: path)
      return nil
    } catch {
      return error
    }
  }

  @Test func foreignFilesAreRejectedClearly() {
    let p = dir.path("t.loupe")
    let cases: [(String, String)] = [
      ("", "'\(p)' is not a Loupe trace: the file is empty."),
      ("\n" + TraceSamples.header.jsonText, "'\(p)' is not a Loupe trace: its first line is empty."),
      (#"{"name":"x","version":"1.0"}"# + "\n", "'\(p)' is not a Loupe trace: its first line is JSON without a \"format\" member."),
      ("[1,2,3]\n", "'\(p)' is not a Loupe trace: its first line is a JSON array, not a trace header."),
      (#"{"format":"chrome-trace","version":1}"# + "\n", "'\(p)' is not a Loupe trace: its format is \"chrome-trace\", not \"loupe-trace\"."),
      (#"{"format":"loupe-trace"}"# + "\n", "'\(p)' is not a Loupe trace: its header has no valid \"version\" (found nothing)."),
      (#"{"format":"loupe-trace","version":"one"}"# + "\n", "'\(p)' is not a Loupe trace: its header has no valid \"version\" (found \"one\")."),
      ("hello, world\nsecond line\n", "'\(p)' is not a Loupe trace: its first line is not JSON (Unexpected character 'h' at byte 1)."),
      (
        TraceSamples.events[0].jsonText + "\n",
        "'\(p)' is not a Loupe trace: it starts with an event, not with a {\"format\":\"loupe-trace\",...} header line (use 'loupe record' or LOUPE_RECORD to write traces)."
      ),
      (#"{"format":"loupe-trace","version":2,"program":"x"}"# + "\n", "'\(p)' is a version 2 Loupe trace, but this loupe reads version 1 only. Update loupe to read it."),
      (#"{"format":"loupe-tr"#, "'\(p)' ends inside its header line: the recording stopped before any event was written."),
    ]
    for (text, message) in cases {
      #expect(openError(Array(text.utf8))?.description == message, "\(text.debugDescription)")
    }
  }

  @Test func binaryFilesAreRejected() {
    let p = dir.path("t.loupe")
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
    var random = SplitMix64(seed: 7)
    var garbage = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    garbage[0] = 0xFF
    let latin1 = Array("caf".utf8) + [0xE9, 0x0A]
    for bytes in [png, garbage, [0, 0, 0, 0], latin1] {
      #expect(openError(bytes)?.description == "'\(p)' is not a Loupe trace: it holds binary data, not JSON Lines.")
    }
  }

  @Test func aHugeSingleLineFileIsRefusedWithoutReadingItAll() {
    let p = dir.path("t.loupe")
    let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20)
    #expect(openError(bytes)?.description == "'\(p)' is not a Loupe trace: its first line is not a trace header (it is over 64 KiB long).")
  }

  @Test func missingFilesAndDirectories() {
    #expect(throws: TraceError.cannotOpen(path: "/nonexistent/x.loupe", reason: "No such file or directory")) {
      _ = try TraceReader(path: "/nonexistent/x.loupe")
    }
    #expect(throws: TraceError.cannotOpen(path: dir.url.path, reason: "Is a directory")) {
      _ = try TraceReader(path: dir.url.path)
    }
  }

  @Test func readsFromAPipe() throws {
    let pipe = Pipe()
    let bytes = TraceSamples.traceBytes()
    pipe.fileHandleForWriting.write(Data(bytes))
    try pipe.fileHandleForWriting.close()
    let reader = try TraceReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor, name: "<stdin>", options: .init(chunkSize: 32))
    #expect(reader.fileSize == nil)
    #expect(try reader.readAll() == TraceSamples.events)
  }
}
