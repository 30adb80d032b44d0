import Foundation
import Testing
@testable import LoupeCore
@testable import LoupeSession

/// A trace cut at every byte offset: every complete event is kept, and the cut is reported
/// exactly when it falls inside a line.
@Suite struct TraceTruncationTests {
  @Test(arguments: ["\n", "\r\n"], [7, 1 << 20])
  func truncatedAtEveryByteOffset(lineEnding: String, chunkSize: Int) throws {
    let dir = ScratchDirectory()
    let events = Array(TraceSamples.events.prefix(8))
    let full = TraceSamples.traceBytes(events, lineEnding: lineEnding)
    // Where each line's content ends, and where the next line starts.
    var lineEnds: [Int] = []
    var lineStarts: [Int] = [0]
    var offset = 0
    for text in [TraceSamples.header.jsonText] + events.map(\.jsonText) {
      offset += text.utf8.count
      lineEnds.append(offset)
      offset += lineEnding.utf8.count
      lineStarts.append(offset)
    }
    let path = dir.path("cut.loupe")
    for cut in 0...full.count {
      _ = FileManager.default.createFile(atPath: path, contents: Data(full[..<cut]))
      let reader: TraceReader
      do {
        reader = try TraceReader(path: path, options: .init(chunkSize: chunkSize))
      } catch {
        if cut == 0 {
          #expect(error == .notATrace(path: path, reason: "the file is empty"))
        } else {
          #expect(cut < lineEnds[0], "cut \(cut)")
          #expect(error == .truncatedHeader(path: path), "cut \(cut)")
        }
        continue
      }
      #expect(cut >= lineEnds[0], "cut \(cut): opened a file cut inside its header")
      let read = try reader.readAll()
      // Events whose whole text lies before the cut are complete (a missing line break is fine).
      let complete = lineEnds.dropFirst().filter { $0 <= cut }.count
      #expect(read == Array(events.prefix(complete)), "cut \(cut)")
      // The cut is inside a line when it is after that line's start and before its end.
      let partialLine = lineEnds.indices.first { lineStarts[$0] < cut && cut < lineEnds[$0] }
      if let partialLine {
        #expect(
          reader.truncation
            == TraceReader.Truncation(line: partialLine + 1, offset: lineStarts[partialLine], byteCount: cut - lineStarts[partialLine]),
          "cut \(cut)")
      } else {
        #expect(reader.truncation == nil, "cut \(cut)")
      }
      #expect(reader.malformedLineCount == 0, "cut \(cut)")
    }
  }

  @Test func truncationDescription() {
    let truncation = TraceReader.Truncation(line: 57, offset: 9000, byteCount: 312)
    #expect(
      truncation.description
        == "the trace ends inside line 57 (312 bytes after the last complete event, ignored); the recording was cut short")
  }
}
