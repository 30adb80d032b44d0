import Testing
import TestSupport
@testable import LoupeCore

/// The trace writer's faster paths write the same bytes as the plain ones: numbers against
/// Swift's own text, the hot kinds' member literals against the key-by-key encoding they
/// replaced, cached `source` texts against encoding each location.
@Suite struct EncodingExactnessTests {
  @Test func integersAsSwiftPrintsThem() {
    var generator = SplitMix64(seed: 19)
    var samples = [0, 9, 10, 99, 100, 101, -1, -9, -10, -100, Int.max, Int.min, Int.min + 1]
    for _ in 0..<100_000 {
      let bits = UInt64.random(in: 0...64, using: &generator)
      let raw = Int(truncatingIfNeeded: generator.next() >> (64 - bits))  // every length
      samples.append(raw)
      samples.append(-raw)
    }
    let wrong = samples.filter { JSON.int($0).jsonText != String($0) }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }

  @Test func doublesAsBeforeForEveryKindOfValue() {
    var generator = SplitMix64(seed: 33)
    var samples: [Double] = [
      0, -0.0, 1, -1, 0.5, 1e-4, -1e-4, 1e-4.nextDown, 1e-4.nextUp, 1e9, 1e9.nextDown, -1e9.nextDown, 1e15, 1e15.nextDown,
      999_999_999.999999, 999_999_999.9999995, 0.000001, 0.0000015, 123.4565, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
      .leastNormalMagnitude, .nan, .infinity, -.infinity, 0.1 + 0.2, 2.5, 1_000_000.5, 12.000001,
    ]
    for _ in 0..<200_000 {
      let nanoseconds = Int.random(in: 0..<4_000_000_000_000_000, using: &generator)
      samples.append(Double(nanoseconds) / 1e6)  // an event time
      samples.append(-Double(nanoseconds >> Int.random(in: 0..<60, using: &generator)) / 1e6)
      samples.append(Double(nanoseconds % 1_000_000_000) / 1e6 + 0.0000005)  // halfway between two times
      samples.append(Double(bitPattern: generator.next()))  // any double at all
      samples.append(Double.random(in: -2e9..<2e9, using: &generator))
      samples.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 1e3)
    }
    let wrong = samples.filter { JSON.double($0).jsonText != Self.textBefore($0) }
    #expect(wrong.isEmpty, "\(wrong.prefix(5).map { "\($0.description) → \(JSON.double($0).jsonText)" })")
  }

  /// What `double` printed before its faster paths: `null` for what JSON cannot spell,
  /// integral values as integers with `.0`, the rest by `description`.
  static func textBefore(_ value: Double) -> String {
    if !value.isFinite { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return (value == 0 && value.sign == .minus ? "-" : "") + "\(Int(value)).0" }
    return value.description
  }

  @Test func stringsEscapedAsByteByByte() {
    var generator = SplitMix64(seed: 5)
    let pieces: [String] = ["a", "é", "\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "🙂", "\t"]
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...40, using: &generator)
      let text = (0..<length).map { _ in
        Int.random(in: 0..<4, using: &generator) == 0 ? pieces.randomElement(using: &generator)! : "x"
      }.joined()
      #expect(JSON.string(text).jsonText == Self.escapedByteByByte(text))
    }
  }

  /// JSON's escaping, one byte at a time, as the writer spells it.
  static func escapedByteByByte(_ text: String) -> String {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
      case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
      case 0x0A: out += Array(#"\n"#.utf8)
      case 0x0D: out += Array(#"\r"#.utf8)
      case 0x09: out += Array(#"\t"#.utf8)
      case 0x08: out += Array(#"\b"#.utf8)
      case 0x0C: out += Array(#"\f"#.utf8)
      case 0..<0x20: out += Array((#"\u00"# + String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)).utf8)
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
    return String(decoding: out, as: UTF8.self)
  }

  @Test func hotKindsAsKeyByKey() {
    var generator = SplitMix64(seed: 7)
    for round in 0..<2_000 {
      let event = Self.randomEvent(round, &generator)
      var before = JSONWriter()
      if round % 3 == 0 { before.beginArray() }  // an event after another, in a list
      var after = before
      Self.encodeKeyByKey(event, into: &before)
      event.encode(into: &after)
      #expect(after.string == before.string)
      if after.string != before.string { return }
    }
  }

  @Test func cachedSourcesAsEncodedEachTime() {
    var generator = SplitMix64(seed: 91)
    var sources: SourceTexts? = SourceTexts()
    // More locations than the table has slots, each coming back: hits, misses and collisions.
    for round in 0..<5_000 {
      var event = Self.randomEvent(round, &generator)
      event.payload = .effectStarted(
        EffectStarted(store: "A#1", effect: round, cause: 1, cancelID: nil, source: Self.randomLocation(&generator)))
      let location = Self.randomLocation(&generator)
      if case .actionReceived(var action) = Self.randomEvent(round, &generator).payload, round % 2 == 0 {
        action.source = location
        event.payload = .actionReceived(action)
      }
      var plain = JSONWriter()
      var cached = JSONWriter()
      event.encode(into: &plain)
      event.encode(into: &cached, sources: &sources)
      #expect(cached.string == plain.string)
      if cached.string != plain.string { return }
    }
  }

  // MARK: - Random events

  static let files: [StaticString] = ["App/A.swift", "App/Bé.swift", "App/\"quoted\".swift", "M/Feature.swift", "x"]
  static let paths: [StaticString] = ["/src/App/A.swift", "/src/App/Bé.swift", "/src/a\\b.swift", "/p"]

  static func randomLocation(_ generator: inout SplitMix64) -> CodeLocation? {
    let line = UInt.random(in: 1...40, using: &generator)
    let file = files.randomElement(using: &generator)!
    switch Int.random(in: 0..<8, using: &generator) {
    case 0: return nil
    case 1: return CodeLocation(file: file.description, line: Int(line), path: "/text/path")
    case 2: return CodeLocation(fileID: file, filePath: nil, line: line)
    case 3: return CodeLocation(fileID: "é", filePath: "ü", line: line)  // single-scalar static strings
    default: return CodeLocation(fileID: file, filePath: paths.randomElement(using: &generator)!, line: line)
    }
  }

  static func randomJSON(_ generator: inout SplitMix64) -> JSON? {
    switch Int.random(in: 0..<8, using: &generator) {
    case 7: ValueEncodingExactnessTests.randomTree(depth: 3, &generator)
    case 0: nil
    case 1: .bool(Bool.random(using: &generator))
    case 2: .int(Int.random(in: -1_000...1_000, using: &generator))
    case 3: .double(Double(Int.random(in: 0...1_000_000, using: &generator)) / 1e3)
    case 4: .string(["", "idle", "a \"b\"\n", "Row number 3"].randomElement(using: &generator)!)
    case 5: .object(["toggle": .int(3), "x": .null])
    default: .array([.int(1), .string("two")])
    }
  }

  static func randomShape(_ generator: inout SplitMix64) -> ValueShape? {
    switch Int.random(in: 0..<4, using: &generator) {
    case 0: nil
    case 1: ValueShape(enums: [""])
    case 2: ValueShape(enums: [""], tuples: ["a.b"])
    default: ValueEncodingExactnessTests.randomShape(&generator)
    }
  }

  /// A string of 0 to 40 bytes, most of them plain, some that JSON escapes or that take more
  /// than a byte: every length the writer copies by words, by bytes or by `memcpy`.
  static func randomText(_ generator: inout SplitMix64) -> String {
    let pieces: [String] = ["a", "é", "\"", "\\", "\n", "\u{1}", " ", "🙂", "#", "[id: 3]"]
    let length = Int.random(in: 0...40, using: &generator)
    var text = ""
    while text.utf8.count < length {
      text += Int.random(in: 0..<6, using: &generator) == 0 ? pieces.randomElement(using: &generator)! : "x"
    }
    return text
  }

  static func randomEvent(_ round: Int, _ generator: inout SplitMix64) -> Event {
    let origin = ActionReceived.Origin.allCases.randomElement(using: &generator)!
    let client: String? = Bool.random(using: &generator) ? nil : randomText(&generator)
    let payload: Event.Payload
    if Bool.random(using: &generator) {
      payload = .actionReceived(ActionReceived(
        store: randomText(&generator), action: randomText(&generator), value: randomJSON(&generator) ?? .null, origin: origin,
        effect: Bool.random(using: &generator) ? nil : round, source: randomLocation(&generator),
        shape: randomShape(&generator), client: client))
    } else {
      let changes = (0..<Int.random(in: 0..<4, using: &generator)).map { index in
        Change(
          path: randomText(&generator), op: Change.Op.allCases.randomElement(using: &generator)!,
          old: randomJSON(&generator), new: randomJSON(&generator),
          index: Bool.random(using: &generator) ? nil : index, truncated: Bool.random(using: &generator),
          oldShape: randomShape(&generator), newShape: randomShape(&generator))
      }
      payload = .stateChanged(StateChanged(
        store: randomText(&generator), cause: round, changes: changes, summary: randomText(&generator),
        origin: Bool.random(using: &generator) ? nil : origin, client: client))
    }
    let times: [Double] = [Double(round) * 1.000001, .nan, .infinity, -0.0, Double(bitPattern: generator.next())]
    return Event(seq: round + 1, time: times[round % 7 < 3 ? 0 : round % 7 - 2], payload: payload)
  }

  /// `action.received` and `state.changed` as written before their member literals: each key
  /// through ``JSONWriter/key(_:)-(StaticString)``, each string by the byte-by-byte escaper.
  static func encodeKeyByKey(_ event: Event, into w: inout JSONWriter) {
    w.beginObject()
    w.key("seq"); w.raw(Array(String(event.seq).utf8))
    w.key("time"); w.raw(Array(textBefore(event.time).utf8))
    w.key("kind"); w.escapedByteByByte(event.kind)
    switch event.payload {
    case .actionReceived(let e):
      w.key("store"); w.escapedByteByByte(e.store)
      w.key("action"); w.escapedByteByByte(e.action)
      w.key("value"); w.raw(Array(ValueEncodingExactnessTests.plainText(e.value).utf8))
      w.key("origin"); w.escapedByteByByte(e.origin.rawValue)
      if let effect = e.effect { w.key("effect"); w.raw(Array(String(effect).utf8)) }
      if let source = e.source { w.key("source"); source.encode(into: &w) }
      if let shape = e.shape { w.key("shape"); w.raw(Array(ValueEncodingExactnessTests.plainText(shape).utf8)) }
      if let client = e.client { w.key("client"); w.escapedByteByByte(client) }
    case .stateChanged(let e):
      w.key("store"); w.escapedByteByByte(e.store)
      w.key("cause"); w.raw(Array(String(e.cause).utf8))
      w.key("changes")
      w.beginArray()
      for change in e.changes { w.raw(Array(ValueEncodingExactnessTests.plainText(change).utf8)) }
      w.endArray()
      w.key("summary"); w.escapedByteByByte(e.summary)
      if let origin = e.origin { w.key("origin"); w.escapedByteByByte(origin.rawValue) }
      if let client = e.client { w.key("client"); w.escapedByteByByte(client) }
    default:
      Issue.record("not a hot kind")
    }
    w.endObject()
  }
}

extension JSONWriter {
  /// A string value escaped by ``EncodingExactnessTests/escapedByteByByte(_:)``.
  mutating func escapedByteByByte(_ text: String) {
    raw(Array(EncodingExactnessTests.escapedByteByByte(text).utf8))
  }
}
