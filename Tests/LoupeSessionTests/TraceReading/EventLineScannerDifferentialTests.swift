import Testing
import TestSupport
@testable import LoupeCore
@testable import LoupeSession

/// The fast strict scanner and line prefix against their previous implementations
/// (`Reference/`, kept verbatim): the same verdict and the same members on random, mutated,
/// truncated and adversarial lines.
@Suite struct EventLineScannerDifferentialTests {
  // MARK: - Comparing

  static func describe(_ member: EventLineScanner.Member) -> String {
    switch member {
    case .absent: "absent"
    case .plain(let range): "plain(\(range))"
    case .other: "other"
    }
  }

  static func describe(_ member: ReferenceEventLineScanner.Member) -> String {
    switch member {
    case .absent: "absent"
    case .plain(let range): "plain(\(range))"
    case .other: "other"
    }
  }

  static func fast(_ bytes: [UInt8]) -> [String] {
    bytes.withUnsafeBufferPointer { line in
      let fields = EventLineScanner.scan(line).map {
        "\(describe($0.kind)) \(describe($0.store)) \(describe($0.action)) \(String(describing: $0.seq)) \($0.hasTime)"
      }
      let prefix = EventLinePrefix.parse(line).map { "\($0.seq) \($0.kind) \(String(describing: $0.store))" }
      let events = EventLineScanner.eventRanges(inNotification: line).map { "\($0)" }
      return [fields ?? "nil", prefix ?? "nil", events ?? "nil"]
    }
  }

  static func reference(_ bytes: [UInt8]) -> [String] {
    bytes.withUnsafeBufferPointer { line in
      let fields = ReferenceEventLineScanner.scan(line).map {
        "\(describe($0.kind)) \(describe($0.store)) \(describe($0.action)) \(String(describing: $0.seq)) \($0.hasTime)"
      }
      let prefix = ReferenceEventLinePrefix.parse(line).map { "\($0.seq) \($0.kind) \(String(describing: $0.store))" }
      let events = ReferenceEventLineScanner.eventRanges(inNotification: line).map { "\($0)" }
      return [fields ?? "nil", prefix ?? "nil", events ?? "nil"]
    }
  }

  /// Counts the inputs on which the two disagree, recording the first few.
  static func disagreements(_ inputs: [[UInt8]]) -> [String] {
    var found: [String] = []
    for input in inputs where fast(input) != reference(input) {
      if found.count < 5 {
        found.append("\(String(decoding: input, as: UTF8.self)) \(input): fast \(fast(input)), reference \(reference(input))")
      }
    }
    return found
  }

  // MARK: - Inputs

  static let stringPieces: [String] = [
    "", "a", "kind", "AppFeature#1/pages[id: 1]", "effect.started", "0123456789abcdef0123456789", #"\""#, #"\\"#, #"\/"#,
    #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\u00e9"#, #"\uD83D\uDE00"#, #"\uABCD"#, #"\u12"#, #"\x"#, #"\"#, "é", "€", "🙂",
    "\u{FFFF}", "\u{10FFFF}", "\u{7F}", " ",
  ]
  static let badBytes: [[UInt8]] = [
    [0xC0, 0x80], [0xC1, 0xBF], [0xC3], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
    [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xE2, 0x82],
    [0xF0, 0x9F, 0x99], [0x00], [0x1F], [0x0A], [0xEF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xC2, 0x80],
  ]
  static let numbers = [
    "0", "-0", "1", "-1", "42", "0.5", "-0.5e-3", "1e5", "1E+5", "1e-0", "123456789012345678", "1234567890123456789",
    "-123456789012345678", "12345678901234567890", "01", "1.", ".5", "-", "1e", "1e+", "+1", "0x1", "1.5.5", "--1", "-01",
  ]
  static let keys = [
    "seq", "time", "kind", "store", "action", "value", "ki\\u006ed", "st\\u006fre", "seqs", "sto", "kinds", "actio",
    "method", "params", "events", "jsonrpc",
  ]

  static func string(_ random: inout SplitMix64) -> [UInt8] {
    var bytes: [UInt8] = [0x22]
    for _ in 0..<Int.random(in: 0...4, using: &random) {
      if Int.random(in: 0..<12, using: &random) == 0 {
        bytes += badBytes.randomElement(using: &random)!
      } else {
        bytes += Array(stringPieces.randomElement(using: &random)!.utf8)
      }
    }
    return bytes + [0x22]
  }

  static func whitespace(_ random: inout SplitMix64) -> [UInt8] {
    Int.random(in: 0..<6, using: &random) == 0 ? [[0x20], [0x09], [0x0A], [0x0D], [0x20, 0x20]].randomElement(using: &random)! : []
  }

  static func value(_ random: inout SplitMix64, depth: Int) -> [UInt8] {
    switch Int.random(in: 0..<(depth > 4 ? 6 : 8), using: &random) {
    case 0, 1: return string(&random)
    case 2: return Array(numbers.randomElement(using: &random)!.utf8)
    case 3: return Array(["true", "false", "null", "tru", "nul", "fals", "falsey", "nulll"].randomElement(using: &random)!.utf8)
    case 4: return Array(["{}", "[]", "[ ]", "{ }", "[,]", "{,}", "[1,]"].randomElement(using: &random)!.utf8)
    case 5: return Array(numbers.prefix(12).randomElement(using: &random)!.utf8)
    case 6: return object(&random, depth: depth + 1)
    default:
      var bytes: [UInt8] = [0x5B] + whitespace(&random)
      for index in 0..<Int.random(in: 0...3, using: &random) {
        if index > 0 { bytes += [0x2C] + whitespace(&random) }
        bytes += value(&random, depth: depth + 1) + whitespace(&random)
      }
      return bytes + [0x5D]
    }
  }

  static func object(_ random: inout SplitMix64, depth: Int) -> [UInt8] {
    var bytes: [UInt8] = [0x7B] + whitespace(&random)
    for index in 0..<Int.random(in: 0...(depth == 0 ? 8 : 3), using: &random) {
      if index > 0 { bytes += [0x2C] + whitespace(&random) }
      let key = Int.random(in: 0..<5, using: &random) == 0 ? string(&random) : Array("\"\(keys.randomElement(using: &random)!)\"".utf8)
      bytes += key + whitespace(&random) + [0x3A] + whitespace(&random) + value(&random, depth: depth) + whitespace(&random)
    }
    return bytes + [0x7D]
  }

  /// Loupe's own line start with random values, so the prefix is exercised past its first check.
  static func eventLine(_ random: inout SplitMix64) -> [UInt8] {
    var text = #"{"seq":\#(Int.random(in: 0...99999, using: &random)),"time":\#(numbers.randomElement(using: &random)!),"kind":"#
    var bytes = Array(text.utf8) + string(&random)
    if Bool.random(using: &random) { bytes += Array(#","store":"#.utf8) + string(&random) }
    text = Bool.random(using: &random) ? #","action":"A.b","value":{"x":[1,2.5,"é"]}}"# : "}"
    return bytes + Array(text.utf8)
  }

  static func mutated(_ line: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
    var bytes = line
    let interesting: [UInt8] = [0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x3A, 0x2C, 0x20, 0x0A, 0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xED, 0xF0, 0xF4, 0xFF, 0x30, 0x2D, 0x65, 0x75]
    for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
      let index = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<4, using: &random) {
      case 0: bytes[index] = interesting.randomElement(using: &random)!
      case 1: bytes[index] = UInt8.random(in: 0...255, using: &random)
      case 2: bytes.insert(interesting.randomElement(using: &random)!, at: index)
      default: bytes.remove(at: index)
      }
    }
    return bytes
  }

  // MARK: - Tests

  @Test func randomLinesAndTheirMutations() {
    var random = SplitMix64(seed: 0x5EED_0018)
    var inputs: [[UInt8]] = []
    for _ in 0..<3000 {
      let line = Bool.random(using: &random) ? Self.eventLine(&random) : Self.object(&random, depth: 0)
      inputs.append(line)
      for _ in 0..<8 { inputs.append(Self.mutated(line, &random)) }
    }
    #expect(Self.disagreements(inputs) == [])
  }

  @Test func everyTruncationOfValidLines() {
    var random = SplitMix64(seed: 18)
    var inputs: [[UInt8]] = []
    let fixed = [
      #"{"seq":3,"time":1.5,"kind":"action.received","store":"A#1/pages[id: 2]","action":"P.Action.tick","value":{"kind":"nested","s":[true,false,null,-0.5e+3]},"origin":"send"}"#,
      #"{"seq":2,"time":0.02,"kind":"state.changed","store":"AppFeature#1/pages[id: 1]","cause":1,"changes":[{"path":"isPlaying","op":"replace","old":false,"new":true}],"summary":"é€🙂 \"q\" \u00e9\uD83D\uDE00 \\ \/ \b\f\n\r\t"}"#,
      #"{"jsonrpc":"2.0","method":"loupe/events","params":{"events":[{"seq":1,"time":0.5,"kind":"mark"},{"seq":2,"time":1,"kind":"x","v":[[],{}]}]}}"#,
      #"{"params":{"other":1,"events":[]},"method":"loupe/events","jsonrpc":"2.0"}"#,
    ]
    var lines = fixed.map { Array($0.utf8) }
    for _ in 0..<60 { lines.append(Self.eventLine(&random)) }
    for line in lines {
      for cut in 0...line.count { inputs.append(Array(line[..<cut])) }
    }
    #expect(Self.disagreements(inputs) == [])
  }

  @Test func adversarialLines() {
    var inputs: [[UInt8]] = []
    // Nesting around the depth limit, in objects, arrays and both, at the top and in a notification.
    for depth in [1, 2, 254, 255, 256, 509, 510, 511, 512, 513, 514, 600] {
      let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
      let mixed = String(repeating: #"[{"a":"#, count: depth / 2) + "null" + String(repeating: "}]", count: depth / 2)
      for inner in [arrays, objects, mixed] {
        inputs.append(Array(#"{"v":\#(inner)}"#.utf8))
        inputs.append(Array(inner.utf8))
        inputs.append(Array(#"{"method":"loupe/events","params":{"events":[{"v":\#(inner)}]}}"#.utf8))
      }
    }
    // Every escape, good and bad, and every byte after a backslash.
    for byte in UInt8(0)...UInt8(255) {
      inputs.append(Array(#"{"a":"\"#.utf8) + [byte] + Array(#""}"#.utf8))
      inputs.append(Array(#"{"a":"\u00"#.utf8) + [byte] + Array(#"0"}"#.utf8))
      inputs.append(Array(#"{"a":""#.utf8) + [byte] + Array(#""}"#.utf8))
      inputs.append(Array(#"{"a":"#.utf8) + [byte] + Array("}".utf8))
      inputs.append([byte] + Array(#"{"a":1}"#.utf8))
      inputs.append(Array(#"{"a":1}"#.utf8) + [byte])
      inputs.append(Array(#"{"seq":1,"time":1,"kind":"ab"#.utf8) + [byte] + Array(#"cdefghijkl","store":"s"}"#.utf8))
    }
    // Every two-byte sequence and a sample of longer ones (overlong, surrogates, past U+10FFFF).
    for lead in UInt8(0x80)...UInt8(0xFF) {
      for second in stride(from: 0, through: 255, by: 1) {
        inputs.append(Array(#"{"a":""#.utf8) + [lead, UInt8(second)] + Array(#"xyz"}"#.utf8))
      }
      for tail in [[0x80, 0x80], [0xBF, 0xBF], [0x9F, 0xBF], [0xA0, 0x80], [0x8F, 0xBF, 0xBF], [0x90, 0x80, 0x80], [0x80, 0x80, 0x80], [0x80, 0x7F, 0x80]] as [[UInt8]] {
        inputs.append(Array(#"{"a":""#.utf8) + [lead] + tail + Array(#""}"#.utf8))
        inputs.append(Array(#"{"a":"12345678"#.utf8) + [lead] + tail)
      }
    }
    // Numbers at their edges, as values of seq, time and others.
    for number in Self.numbers + ["-", "0e", "0E-", "1e+1", "9223372036854775807", "-9223372036854775808", "0.0e0", "1ee1"] {
      for key in ["seq", "time", "x"] {
        inputs.append(Array(#"{"\#(key)":\#(number)}"#.utf8))
        inputs.append(Array(#"{"\#(key)":\#(number),"kind":"k"}"#.utf8))
        inputs.append(Array(#"{"seq":\#(number),"time":\#(number),"kind":"k"}"#.utf8))
      }
    }
    // Repeated and escaped known keys, non-string members, whitespace everywhere.
    inputs += [
      #"{"kind":"a","kind":"b"}"#, #"{"ki\u006ed":"a","kind":"b"}"#, #"{"store":1,"action":null,"kind":"k"}"#,
      #" { "kind" : "a" , "seq" : 1 , "time" : 2 } "#, "\t{\r\n\"kind\"\n:\"a\"}\n", #"{"kind":"a\\b"}"#, #"{"":1}"#,
      #"{"seq":1,"time":1,"kind":"k","store":"s\"x"}"#, #"{"seq":1,"time":1,"kind":"k","store":1}"#, #"{"seq":1,"time":1,"kind":"k""#,
      #"{"method":"loupe/event","params":{"events":[]}}"#, #"{"method":"loupe/events","params":{"events":{}}}"#,
      #"{"method":"loupe/events"}"#, #"{"method":"loupe/events","params":{"events":[1,"x",{}]}} "#,
      #"{"method":"loupe/events","params":{"events":[1,]}}"#, #"[{"method":"loupe/events","params":{"events":[]}}]"#,
    ].map { Array($0.utf8) }
    #expect(Self.disagreements(inputs) == [])
  }
}
