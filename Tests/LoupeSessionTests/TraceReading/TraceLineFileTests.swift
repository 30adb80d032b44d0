import Foundation
import Testing
@testable import LoupeSession

/// ``TraceLineFile`` reads lines back through a read-ahead window (one system call per
/// ``TraceLineFile/readAhead`` bytes when going through lines in order) and never answers from
/// it with bytes the file did not have when the window was read.
@Suite struct TraceLineFileTests {
  @Test func linesReadInOrderAndAfterTheFileGrew() throws {
    let scratch = ScratchDirectory()
    let lines = (0..<5_000).map { "{\"seq\":\($0),\"pad\":\"\(String(repeating: "x", count: $0 % 97))\"}" }
    var offsets: [Int] = []
    var text = ""
    for line in lines {
      offsets.append(text.utf8.count)
      text += line + "\n"
    }
    let path = scratch.file("lines.loupe", text: text)
    let file = try TraceLineFile(path: path)
    // In order, back and forth, and the last one: each as written.
    for index in Array(lines.indices) + lines.indices.reversed() + [4_999, 0, 2_500, 2_499] {
      #expect(file.read(offset: offsets[index], length: lines[index].utf8.count) == Array(lines[index].utf8))
    }
    // The window now ends at the file's end; a line appended later is read from the file.
    let handle = try #require(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    handle.write(Data("{\"seq\":5000}\n".utf8))
    try handle.close()
    let end = text.utf8.count
    #expect(file.read(offset: end, length: 12) == Array("{\"seq\":5000}".utf8))
    #expect(file.read(offset: end - 8, length: 20) == Array("xxxxx\"}\n{\"seq\":5000}".utf8))
    // Past the end: what there is.
    #expect(file.read(offset: end + 13, length: 5) == [])
    #expect(file.line(at: offsets[4_999]) == Array(lines[4_999].utf8))
  }
}
