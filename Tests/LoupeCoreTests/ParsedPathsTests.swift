import Testing
@testable import LoupeCore

/// Paths parsed once (``ParsedPaths``, issue 33 item 18) are what parsing them again gives,
/// told apart by their bytes.
@Suite struct ParsedPathsTests {
  @Test func aPathIsWhatParsingItGivesByItsBytes() throws {
    let paths = ParsedPaths()
    let texts = ["rows[id: 7]", "rows[id: 7].v", #"["é"]"#, "[\"e\u{301}\"]", "rows[id: ", "", "tags[3]", #"rows[id: "7"]"#]
    for _ in 0..<2 {
      for text in texts {
        #expect(paths.path(text) == (try? StatePath(parsing: text)), "\(text)")
      }
    }
    // The two spellings of é name two members (`==` on paths would call them equal).
    #expect(Self.keyBytes(paths.path(#"["é"]"#)) == Array("\u{e9}".utf8))
    #expect(Self.keyBytes(paths.path("[\"e\u{301}\"]")) == Array("e\u{301}".utf8))
    #expect(paths.path("rows[id: ") == nil)
  }

  static func keyBytes(_ path: StatePath?) -> [UInt8]? {
    guard case .key(let key)? = path?.components.first else { return nil }
    return Array(key.utf8)
  }

  @Test func beyondTheLimitPathsAreParsedAgain() {
    let paths = ParsedPaths()
    for id in 0..<(ParsedPaths.limit + 10) {
      #expect(paths.path("rows[id: \(id)]") == StatePath([.field("rows"), .id(.int(id))]))
    }
    #expect(paths.path("rows[id: 3]") == StatePath([.field("rows"), .id(.int(3))]))
  }
}
