import Testing
import TestSupport
@testable import LoupeCore

/// JSON values, shapes and changes written by the trace writer's faster paths (literals for
/// `true`, `false` and `null`, the root-enum shape, a change's `op`, strings read in place)
/// against a plain-text writer of their own, over random trees with odd strings, `nan`,
/// infinities and `-0.0`.
@Suite struct ValueEncodingExactnessTests {
  @Test func valuesAsPlainText() {
    var generator = SplitMix64(seed: 23)
    for round in 0..<20_000 {
      let value = Self.randomTree(depth: 3, &generator)
      var writer = JSONWriter(capacity: 16)  // small: every literal lands near the buffer's end
      if round % 2 == 0 { writer.beginArray(); writer.int(round) }  // after a comma
      let prefix = round % 2 == 0 ? "[\(round)," : ""
      writer.value(value)
      #expect(writer.string == prefix + Self.plainText(value))
      if writer.string != prefix + Self.plainText(value) { return }
    }
  }

  /// Long clean runs with an odd byte here and there: every place a 16-byte or 8-byte step,
  /// or the overlapping last step, can meet one.
  @Test func longStringsEscapedAsByteByByte() {
    var generator = SplitMix64(seed: 61)
    let odd: [String] = ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "🙂", "\u{7F}"]
    for _ in 0..<20_000 {
      let length = Int.random(in: 0...100, using: &generator)
      var text = ""
      while text.utf8.count < length {
        text += Int.random(in: 0..<40, using: &generator) == 0 ? odd.randomElement(using: &generator)! : "x"
      }
      #expect(JSON.string(text).jsonText == EncodingExactnessTests.escapedByteByByte(text))
    }
  }

  @Test func literalsAfterAndWithoutComma() {
    var writer = JSONWriter(capacity: 1)
    writer.beginArray()
    for value in [true, false, true] { writer.bool(value) }
    writer.null()
    writer.endArray()
    writer.bool(false)
    writer.null()
    #expect(writer.string == "[true,false,true,null],false,null")
  }

  @Test func shapesAsPlainText() {
    var generator = SplitMix64(seed: 41)
    let fixed = [
      ValueShape(enums: [""]), ValueShape(enums: [""], tuples: ["a"]), ValueShape(enums: ["", ""]),
      ValueShape(enums: ["a"]), ValueShape(tuples: [""]), ValueShape(), ValueShape(enums: ["", "rows"]),
    ]
    for shape in fixed + (0..<5_000).map({ _ in Self.randomShape(&generator) }) {
      for comma in [false, true] {
        var writer = JSONWriter(capacity: 8)
        writer.needsComma = comma
        shape.encode(into: &writer)
        writer.int(1)  // a comma is due after it
        let expected = (comma ? "," : "") + Self.plainText(shape) + ",1"
        #expect(writer.string == expected)
      }
    }
  }

  @Test func changesAsPlainText() {
    var generator = SplitMix64(seed: 57)
    for round in 0..<5_000 {
      let change = Change(
        path: EncodingExactnessTests.randomText(&generator), op: Change.Op.allCases.randomElement(using: &generator)!,
        old: Bool.random(using: &generator) ? nil : Self.randomTree(depth: 2, &generator),
        new: Bool.random(using: &generator) ? nil : Self.randomTree(depth: 2, &generator),
        index: Bool.random(using: &generator) ? nil : Int.random(in: -5...100_000, using: &generator),
        truncated: Bool.random(using: &generator),
        oldShape: Bool.random(using: &generator) ? nil : Self.randomShape(&generator),
        newShape: Bool.random(using: &generator) ? nil : Self.randomShape(&generator))
      var writer = JSONWriter()
      if round % 2 == 0 { writer.beginArray(); writer.null() }
      change.encode(into: &writer)
      let expected = (round % 2 == 0 ? "[null," : "") + Self.plainText(change)
      #expect(writer.string == expected)
      if writer.string != expected { return }
    }
  }

  // MARK: - The plain-text writer

  /// `value` as JSON text, written a piece at a time with Swift's own text for numbers (as the
  /// writer printed them before its faster paths) and the byte-by-byte escaper for strings.
  static func plainText(_ value: JSON) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): flag ? "true" : "false"
    case .int(let number): String(number)
    case .double(let number): EncodingExactnessTests.textBefore(number)
    case .string(let text): EncodingExactnessTests.escapedByteByByte(text)
    case .array(let elements): "[" + elements.map(plainText).joined(separator: ",") + "]"
    case .object(let object):
      "{" + object.members.map { EncodingExactnessTests.escapedByteByByte($0.key) + ":" + plainText($0.value) }
        .joined(separator: ",") + "}"
    }
  }

  static func plainText(_ shape: ValueShape) -> String {
    var members: [String] = []
    let list = { (paths: [String]) in "[" + paths.map(EncodingExactnessTests.escapedByteByByte).joined(separator: ",") + "]" }
    if !shape.enums.isEmpty { members.append(#""enums":"# + list(shape.enums)) }
    if !shape.tuples.isEmpty { members.append(#""tuples":"# + list(shape.tuples)) }
    return "{" + members.joined(separator: ",") + "}"
  }

  static func plainText(_ change: Change) -> String {
    var members = [
      #""path":"# + EncodingExactnessTests.escapedByteByByte(change.path),
      #""op":"# + EncodingExactnessTests.escapedByteByByte(change.op.rawValue),
    ]
    if let old = change.old { members.append(#""old":"# + plainText(old)) }
    if let new = change.new { members.append(#""new":"# + plainText(new)) }
    if let index = change.index { members.append(#""index":"# + String(index)) }
    if change.truncated { members.append(#""truncated":true"#) }
    if let shape = change.oldShape { members.append(#""oldShape":"# + plainText(shape)) }
    if let shape = change.newShape { members.append(#""newShape":"# + plainText(shape)) }
    return "{" + members.joined(separator: ",") + "}"
  }

  // MARK: - Random values

  static func randomTree(depth: Int, _ generator: inout SplitMix64) -> JSON {
    let doubles: [Double] = [.nan, .infinity, -.infinity, -0.0, 0.5, 1e300, .leastNonzeroMagnitude, 12.345678, -3.0]
    switch Int.random(in: 0..<(depth > 0 ? 9 : 7), using: &generator) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &generator))
    case 2: return .int(Int(truncatingIfNeeded: generator.next()) >> Int.random(in: 0..<64, using: &generator))
    case 3: return .double(doubles.randomElement(using: &generator)!)
    case 4: return .double(Double(bitPattern: generator.next()))
    case 5, 6: return .string(EncodingExactnessTests.randomText(&generator))
    case 7:
      return .array((0..<Int.random(in: 0..<4, using: &generator)).map { _ in randomTree(depth: depth - 1, &generator) })
    default:
      return .object(JSONObject((0..<Int.random(in: 0..<4, using: &generator)).map { _ in
        JSONObject.Member(EncodingExactnessTests.randomText(&generator), randomTree(depth: depth - 1, &generator))
      }))
    }
  }

  static func randomShape(_ generator: inout SplitMix64) -> ValueShape {
    let paths = { (generator: inout SplitMix64) -> [String] in
      (0..<Int.random(in: 0..<3, using: &generator)).map { _ in
        Bool.random(using: &generator) ? "" : EncodingExactnessTests.randomText(&generator)
      }
    }
    return ValueShape(enums: paths(&generator), tuples: paths(&generator))
  }
}
