import Testing
import TestSupport
@testable import LoupeRPC

/// Feeds `input` to a decoder in the given chunk sizes and collects every output.
func decodeAll(_ input: [UInt8], chunks: [Int]? = nil, limits: FrameDecoder.Limits = .default) -> (frames: [[UInt8]], error: FrameError?) {
  var decoder = FrameDecoder(limits: limits)
  var frames: [[UInt8]] = []
  var offset = 0
  var sizes = (chunks ?? [input.count]).makeIterator()
  while offset < input.count {
    let size = max(1, sizes.next() ?? 1)
    let end = min(input.count, offset + size)
    decoder.append(input[offset..<end])
    offset = end
    drain: while true {
      switch decoder.next() {
      case .frame(let body): frames.append(body)
      case .needMoreData: break drain
      case .failed(let error): return (frames, error)
      }
    }
  }
  return (frames, nil)
}

func framed(_ body: String, header: String? = nil) -> [UInt8] {
  let bytes = Array(body.utf8)
  return Array((header ?? "Content-Length: \(bytes.count)\r\n\r\n").utf8) + bytes
}


@Suite struct FrameDecoderTests {
  static let bodies = [
    #"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#,
    "{}",
    #"{"label":"héllo wörld — 日本語 😀👩‍👩‍👧"}"#,
    "",
    #"[{"jsonrpc":"2.0","method":"initialized"}]"#,
  ]

  static var stream: [UInt8] { bodies.flatMap { framed($0) } }

  @Test func allAtOnce() {
    let (frames, error) = decodeAll(Self.stream)
    #expect(error == nil)
    #expect(frames.map { String(decoding: $0, as: UTF8.self) } == Self.bodies)
  }

  @Test func oneByteAtATime() {
    let input = Self.stream
    let (frames, error) = decodeAll(input, chunks: Array(repeating: 1, count: input.count))
    #expect(error == nil)
    #expect(frames.map { String(decoding: $0, as: UTF8.self) } == Self.bodies)
  }

  @Test func randomChunks() {
    var random = SplitMix64(seed: 42)
    let input = Array(repeating: Self.stream, count: 20).flatMap { $0 }
    for _ in 0..<200 {
      let chunks = (0..<input.count).map { _ in Int.random(in: 1...40, using: &random) }
      let (frames, error) = decodeAll(input, chunks: chunks)
      #expect(error == nil)
      #expect(frames.count == Self.bodies.count * 20)
      #expect(frames.map { String(decoding: $0, as: UTF8.self) } == Array(repeating: Self.bodies, count: 20).flatMap { $0 })
    }
  }

  @Test func countsBytesNotCharacters() {
    let body = "é😀"  // 2 characters, 6 bytes
    let (frames, error) = decodeAll(framed(body, header: "Content-Length: 6\r\n\r\n") + framed("{}"))
    #expect(error == nil)
    #expect(frames == [Array(body.utf8), Array("{}".utf8)])
  }

  @Test func multiMegabyteMultibyteBodies() {
    let unit = "{\"s\":\"" + String(repeating: "ünïcødé 😀 ", count: 10) + "\"}"
    let big = String(repeating: unit, count: 20_000)  // about 3.6 MB
    let input = framed(big) + framed("{}") + framed(big)
    var random = SplitMix64(seed: 7)
    let chunks = (0..<2000).map { _ in Int.random(in: 1...65_536, using: &random) }
    let (frames, error) = decodeAll(input, chunks: chunks)
    #expect(error == nil)
    #expect(frames.count == 3)
    #expect(frames[0] == Array(big.utf8))
    #expect(frames[1] == Array("{}".utf8))
    #expect(frames[2] == Array(big.utf8))
    #expect(Array(big.utf8).count > 3_000_000)
  }

  @Test func headerNamesAreCaseInsensitiveAndUnknownOnesIgnored() {
    for header in [
      "content-length: 2\r\n\r\n", "CONTENT-LENGTH: 2\r\n\r\n", "Content-length:2\r\n\r\n",
      "Content-Length: \t2 \t\r\n\r\n", "X-Custom: whatever\r\nContent-Length: 2\r\n\r\n",
      "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
      "Content-Length: 2\r\ncontent-type: application/vscode-jsonrpc; charset=utf8\r\n\r\n",
      "Content-Length: 2\r\nContent-Type: application/json; charset=\"UTF-8\"\r\n\r\n",
      "Content-Length: 2\r\nContent-Type: application/json\r\n\r\n",
      "Content-Length: 02\r\n\r\n",
      "Content-Length: 2\r\nX-Empty:\r\n\r\n",
    ] {
      let (frames, error) = decodeAll(framed("{}", header: header))
      #expect(error == nil, "\(header.debugDescription)")
      #expect(frames == [Array("{}".utf8)], "\(header.debugDescription)")
    }
  }

  @Test(arguments: [
    ("\r\n\r\n", FrameError.missingContentLength),
    ("Content-Length\r\n\r\n", .malformedHeader("header line without ':'")),
    ("\r\n{}", FrameError.missingContentLength),
    ("Content-Type: application/json\r\n\r\n", .missingContentLength),
    ("Content-Length: -2\r\n\r\n", .invalidContentLength("-2")),
    ("Content-Length: +2\r\n\r\n", .invalidContentLength("+2")),
    ("Content-Length: 0x2\r\n\r\n", .invalidContentLength("0x2")),
    ("Content-Length: 2.0\r\n\r\n", .invalidContentLength("2.0")),
    ("Content-Length: 1 2\r\n\r\n", .invalidContentLength("1 2")),
    ("Content-Length:\r\n\r\n", .invalidContentLength("")),
    ("Content-Length: two\r\n\r\n", .invalidContentLength("two")),
    ("Content-Length: 99999999999999999999999\r\n\r\n", .invalidContentLength("99999999999999999999999")),
    ("Content-Length: 2\r\nContent-Length: 2\r\n\r\n", .duplicateHeader("Content-Length")),
    ("Content-Length: 2\r\nContent-Type: a; charset=utf-8\r\nContent-Type: a\r\n\r\n", .duplicateHeader("Content-Type")),
    ("Content-Length: 2\r\nContent-Type: text/plain; charset=latin1\r\n\r\n", .unsupportedCharset("latin1")),
    ("Content-Length: 2\r\nContent-Type: application/json; charset=utf-16\r\n\r\n", .unsupportedCharset("utf-16")),
    ("Content-Length: 2\r\nContent-Type: ; charset=utf-8\r\n\r\n", .invalidContentType("; charset=utf-8")),
    ("Content-Length: 2\r\nContent-Type: a; charset\r\n\r\n", .invalidContentType("a; charset")),
    ("Content-Length 2\r\n\r\n", .malformedHeader("byte 0x20 in a header name")),
    ("Content-Length: 2\n\n", .malformedHeader("bare LF in a header line")),
    ("Content-Length: 2\r\r\n\r\n", .malformedHeader("CR not followed by LF")),
    ("Content-Length: 2\r\n\r\r", .malformedHeader("CR not followed by LF")),
    (": 2\r\n\r\n", .malformedHeader("empty header name")),
    (" Content-Length: 2\r\n\r\n", .malformedHeader("byte 0x20 in a header name")),
    ("Content-Length: 2\r\n Folded: x\r\n\r\n", .malformedHeader("byte 0x20 in a header name")),
    ("Cöntent-Length: 2\r\n\r\n", .malformedHeader("byte 0xc3 in a header name")),
    ("Content-Length: 2\r\nX: \u{1}\r\n\r\n", .malformedHeader("byte 0x1 in a header value")),
    ("Content-Length: 2\r\nX: é\r\n\r\n", .malformedHeader("byte 0xc3 in a header value")),
    ("{\"jsonrpc\":\"2.0\"}", .malformedHeader("byte 0x7b in a header name")),
    ("GET / HTTP/1.1\r\n\r\n", .malformedHeader("byte 0x20 in a header name")),
    ("\0\0\0\0", .malformedHeader("byte 0x0 in a header name")),
  ])
  func malformedHeaders(header: String, expected: FrameError) {
    let (frames, error) = decodeAll(framed("{}", header: header))
    #expect(frames.isEmpty)
    #expect(error == expected)
  }

  @Test func malformedHeadersFailTheSameByteByByte() {
    let input = Array("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}".utf8)
    let (_, error) = decodeAll(input, chunks: Array(repeating: 1, count: input.count))
    #expect(error == .duplicateHeader("Content-Length"))
  }

  @Test func garbageIsRefusedAtTheFirstBadByte() {
    var decoder = FrameDecoder()
    decoder.append(Array("hello world".utf8))
    #expect(decoder.next() == .failed(.malformedHeader("byte 0x20 in a header name")))
    // Terminal: stays failed, ignores more input.
    decoder.append(framed("{}"))
    #expect(decoder.next() == .failed(.malformedHeader("byte 0x20 in a header name")))
  }

  @Test func bodySizeCap() {
    let limits = FrameDecoder.Limits(maxBodySize: 10, maxHeaderSize: 64)
    #expect(decodeAll(framed("0123456789"), limits: limits).frames.count == 1)
    let (frames, error) = decodeAll(framed("01234567890"), limits: limits)
    #expect(frames.isEmpty)
    #expect(error == .bodyTooLarge(length: 11, limit: 10))
    // Refused from the header alone: the body need not arrive.
    var decoder = FrameDecoder(limits: limits)
    decoder.append(Array("Content-Length: 999999999\r\n\r\n".utf8))
    #expect(decoder.next() == .failed(.bodyTooLarge(length: 999_999_999, limit: 10)))
  }

  @Test func headerSizeCap() {
    let limits = FrameDecoder.Limits(maxBodySize: 10, maxHeaderSize: 64)
    let header = "X-Padding: " + String(repeating: "a", count: 100) + "\r\nContent-Length: 2\r\n\r\n"
    #expect(decodeAll(framed("{}", header: header), limits: limits).error == .headerTooLarge(limit: 64))
    // An endless header line is refused once it passes the cap, not buffered forever.
    var decoder = FrameDecoder(limits: limits)
    decoder.append(Array(repeating: UInt8(ascii: "a"), count: 65))
    #expect(decoder.next() == .failed(.headerTooLarge(limit: 64)))
  }

  @Test func boundaryTracking() {
    var decoder = FrameDecoder()
    #expect(decoder.isAtFrameBoundary)
    decoder.append(Array("Content-Length: 2\r\n\r\n{".utf8))
    #expect(decoder.next() == .needMoreData)
    #expect(!decoder.isAtFrameBoundary)
    decoder.append([UInt8(ascii: "}")])
    #expect(decoder.next() == .frame(Array("{}".utf8)))
    #expect(decoder.next() == .needMoreData)
    #expect(decoder.isAtFrameBoundary)
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test func fuzzNeverTraps() {
    var random = SplitMix64(seed: 99)
    let alphabet = Array("Content-Length: 0123456789\r\n{}é\u{0}:;=charset-utf8".utf8)
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...120, using: &random)
      let input = (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
      let chunks = (0..<count).map { _ in Int.random(in: 1...9, using: &random) }
      _ = decodeAll(input, chunks: chunks, limits: .init(maxBodySize: 50, maxHeaderSize: 100))
    }
  }

  @Test func encoderRoundTrip() {
    let body = Array("{\"a\":\"😀\"}".utf8)
    let frame = FrameEncoder.frame(body)
    #expect(String(decoding: frame, as: UTF8.self) == "Content-Length: 12\r\n\r\n{\"a\":\"😀\"}")
    #expect(decodeAll(frame).frames == [body])
  }
}
