import Testing

@testable import LoupeCLI

@Suite struct LineSplitterTests {
  let input = Array("{\"a\":1}\r\n\n  \n{\"b\":2}\n{\"c\":3}".utf8)

  func split(_ chunks: [ArraySlice<UInt8>], limit: Int = 1 << 20) -> [LineSplitter.Item] {
    var splitter = LineSplitter(maximumLength: limit)
    var items: [LineSplitter.Item] = []
    for chunk in chunks { splitter.feed(chunk) { items.append($0) } }
    splitter.finish { items.append($0) }
    return items
  }

  var expected: [LineSplitter.Item] {
    [.line(Array("{\"a\":1}".utf8)), .line(Array("{\"b\":2}".utf8)), .line(Array("{\"c\":3}".utf8))]
  }

  @Test func allAtOnceByteByByteAndInRandomChunks() {
    #expect(split([input[...]]) == expected)
    #expect(split(input.indices.map { input[$0...$0] }) == expected)
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<50 {
      var chunks: [ArraySlice<UInt8>] = []
      var start = 0
      while start < input.count {
        let end = min(input.count, start + Int.random(in: 1...7, using: &generator))
        chunks.append(input[start..<end])
        start = end
      }
      #expect(split(chunks) == expected)
    }
  }

  @Test func anOversizedLineIsSkippedToItsEndAndReadingGoesOn() {
    let long = Array(repeating: UInt8(ascii: "x"), count: 100)
    let bytes = long + [0x0A] + Array("{}\n".utf8)
    #expect(split([bytes[...]], limit: 10) == [.oversized(100), .line(Array("{}".utf8))])
    #expect(split(bytes.indices.map { bytes[$0...$0] }, limit: 10) == [.oversized(100), .line(Array("{}".utf8))])
  }
}
