import Foundation
import Testing
@testable import LoupeCore
@testable import LoupeSession

@Suite struct TraceWriterTests {
  @Test func headerLineIsExact() {
    #expect(
      TraceSamples.header.jsonText
        == #"{"format":"loupe-trace","version":1,"program":"PagesDemo","pid":4242,"startedAt":"2026-11-22T10:04:05.123Z"}"#)
  }

  @Test func writesHeaderThenOneEventPerLineAsOnTheWire() throws {
    let dir = ScratchDirectory()
    let path = dir.path("t.loupe")
    let writer = try TraceWriter(path: path, header: TraceSamples.header)
    try writer.append(TraceSamples.events[0])
    try writer.append(TraceSamples.events[1...])
    // Visible in the file at once: nothing is buffered in the process.
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == TraceSamples.traceBytes())
    try writer.close()
    let reader = try TraceReader(path: path)
    #expect(reader.header == TraceSamples.header)
    #expect(try reader.readAll() == TraceSamples.events)
    #expect(reader.truncation == nil)
    #expect(reader.malformedLineCount == 0)
  }

  @Test func appendsRawWireLinesUnchanged() throws {
    let dir = ScratchDirectory()
    let path = dir.path("raw.loupe")
    let writer = try TraceWriter(path: path, header: TraceSamples.header)
    let wire = #"{"seq":1,"time":0.5,"kind":"mark","label":"x","future":true}"#
    try writer.appendLine(Array(wire.utf8))
    #expect(throws: TraceError.invalidLine(reason: "it contains a line break")) {
      try writer.appendLine(Array("{}\n{}".utf8))
    }
    #expect(throws: TraceError.invalidLine(reason: "an empty line")) { try writer.appendLine([UInt8]()) }
    try writer.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text == TraceSamples.header.jsonText + "\n" + wire + "\n")
  }

  @Test func appendsSeveralRawLinesWithOneWriteOrNone() throws {
    let dir = ScratchDirectory()
    let path = dir.path("lines.loupe")
    let writer = try TraceWriter(path: path, header: TraceSamples.header)
    let lines = [#"{"seq":1,"time":0.5,"kind":"mark","label":"a"}"#, #"{ "seq": 2, "time": 0.6, "kind": "mark", "label": "b" }"#]
    try writer.appendLines(lines.map { Array($0.utf8) })
    // One bad line: nothing of the batch is written.
    #expect(throws: TraceError.invalidLine(reason: "it contains a line break")) {
      try writer.appendLines([Array("{}".utf8), Array("{\r}".utf8)])
    }
    #expect(throws: TraceError.invalidLine(reason: "an empty line")) { try writer.appendLines([[]]) }
    try writer.appendLines([])
    try writer.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text == TraceSamples.header.jsonText + "\n" + lines.joined(separator: "\n") + "\n")
  }

  /// A recorded send's two events, as the recorder hands them to the writer (its batch moved
  /// through `appendPrefix(owned:)`, `source` texts from the writer's table): the exact lines.
  @Test func aRecordedSendsLinesAreExact() throws {
    let dir = ScratchDirectory()
    let path = dir.path("send.loupe")
    let writer = try TraceWriter(path: path, header: TraceSamples.header)
    let source = CodeLocation(fileID: "App/Rows.swift", filePath: "/src/App/Rows.swift", line: 31)
    var batch = [
      Event(seq: 41, time: 1234.567891, payload: .actionReceived(ActionReceived(
        store: "RowsFeature#1", action: "RowsFeature.Action.toggle", value: ["toggle": 7], origin: .send, source: source,
        shape: ValueShape(enums: [""])))),
      Event(seq: 42, time: 1234.5701, payload: .stateChanged(StateChanged(
        store: "RowsFeature#1", cause: 41, changes: [
          Change(path: "rows[id: 7].isDone", op: .replace, old: false, new: true),
          Change(path: "rows[id: 8]", op: .insert, new: ["id": 8, "t": "é\"\n", "x": nil], index: 3, truncated: true,
                 newShape: ValueShape(enums: ["", "t"], tuples: ["x"])),
          Change(path: "note", op: .remove, old: .double(.nan), oldShape: ValueShape(enums: [""])),
        ], summary: "RowsFeature#1: _rows changed.", origin: .tool, client: "cli"))),
    ]
    for _ in 0..<2 { _ = writer.appendPrefix(owned: &batch) }  // the second `source` from the table
    try writer.close()
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map(String.init)
    let action = #"{"seq":41,"time":1234.567891,"kind":"action.received","store":"RowsFeature#1","action":"RowsFeature.Action.toggle","value":{"toggle":7},"origin":"send","source":{"file":"App/Rows.swift","line":31,"path":"/src/App/Rows.swift"},"shape":{"enums":[""]}}"#
    let change = #"{"seq":42,"time":1234.5701,"kind":"state.changed","store":"RowsFeature#1","cause":41,"changes":[{"path":"rows[id: 7].isDone","op":"replace","old":false,"new":true},{"path":"rows[id: 8]","op":"insert","new":{"id":8,"t":"é\"\n","x":null},"index":3,"truncated":true,"newShape":{"enums":["","t"],"tuples":["x"]}},{"path":"note","op":"remove","old":null,"oldShape":{"enums":[""]}}],"summary":"RowsFeature#1: _rows changed.","origin":"tool","client":"cli"}"#
    #expect(lines == [action, change, action, change])
  }

  @Test func missingDirectoryIsAClearError() {
    #expect(throws: TraceError.cannotOpen(path: "/nonexistent-loupe-dir/t.loupe", reason: "No such file or directory")) {
      _ = try TraceWriter(path: "/nonexistent-loupe-dir/t.loupe", header: TraceSamples.header)
    }
    #expect(
      TraceError.cannotOpen(path: "/x/t.loupe", reason: "No such file or directory").description
        == "Cannot open '/x/t.loupe': No such file or directory.")
  }

  @Test func fullDiskIsReportedNotTrapped() throws {
    // /dev/full accepts opening and fails every write with ENOSPC.
    guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
    #expect(throws: TraceError.cannotWrite(path: "/dev/full", reason: "No space left on device")) {
      _ = try TraceWriter(path: "/dev/full", header: TraceSamples.header)
    }
  }

  @Test func appendAfterCloseThrows() throws {
    let dir = ScratchDirectory()
    let writer = try TraceWriter(path: dir.path("c.loupe"), header: TraceSamples.header)
    try writer.close()
    try writer.close()  // closing twice is harmless
    #expect(throws: TraceError.cannotWrite(path: dir.path("c.loupe"), reason: "the trace is closed")) {
      try writer.append(TraceSamples.events[0])
    }
    #expect(writer.failure == nil)  // closing is not a failure to write
  }

  @Test func concurrentAppendsKeepLinesWhole() async throws {
    let dir = ScratchDirectory()
    let path = dir.path("concurrent.loupe")
    let writer = try TraceWriter(path: path, header: TraceSamples.header)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for n in 0..<200 {
            try? writer.append(Event(seq: task * 1000 + n, time: 0, payload: .mark(Mark(label: String(repeating: "x", count: n)))))
          }
        }
      }
    }
    try writer.close()
    let reader = try TraceReader(path: path)
    #expect(try reader.readAll().count == 1600)
    #expect(reader.malformedLineCount == 0)
  }
}
