import LoupeCore

/// One OpenTelemetry span while it is being built, and its OTLP/JSON form.
///
/// The JSON follows the OTLP specification's mapping of the protobuf messages: lowerCamelCase
/// keys, trace and span ids as lowercase hex (32 and 16 digits), enums as integers, 64-bit
/// integers (times, `intValue`) as decimal strings, attribute values typed
/// (`{"stringValue": …}`). Fields at their default value are left out.
struct OTLPSpan {
  /// A typed attribute value (`AnyValue`).
  enum Value {
    case string(String)
    case int(Int)
    case bool(Bool)
    case double(Double)
  }

  typealias Attribute = (key: String, value: Value)

  /// A span event: something that happened at one instant during the span.
  struct Event {
    var time: UInt64
    var name: String
    var attributes: [Attribute]
  }

  /// A link to a span elsewhere in the run (an action that cancelled this effect, say).
  struct Link {
    var spanID: UInt64
    var attributes: [Attribute]
  }

  /// `Status.StatusCode`: 2 is ERROR.
  static let statusError = 2
  /// `Span.SpanKind`: 1 is INTERNAL.
  static let kindInternal = 1
  /// Events kept on one span; the rest are counted in `droppedEventsCount`, as OTel SDKs do.
  static let eventLimit = 128

  var spanID: UInt64
  var parentID: UInt64 = 0
  var name: String
  var start: UInt64
  var end: UInt64
  var attributes: [Attribute] = []
  var events: [Event] = []
  var droppedEvents = 0
  var links: [Link] = []
  var errorMessage: String? = nil

  mutating func add(_ event: Event) {
    if events.count < Self.eventLimit {
      events.append(event)
    } else {
      droppedEvents += 1
    }
  }

  /// Writes the span as one element of `ScopeSpans.spans`.
  func write(to w: inout JSONWriter, traceID: String) {
    w.beginObject()
    w.key("traceId")
    w.string(traceID)
    w.key("spanId")
    Self.writeHex(spanID, to: &w)
    if parentID != 0 {
      w.key("parentSpanId")
      Self.writeHex(parentID, to: &w)
    }
    w.key("name")
    w.string(name)
    w.key("kind")
    w.int(Self.kindInternal)
    w.key("startTimeUnixNano")
    Self.writeQuoted(start, to: &w)
    w.key("endTimeUnixNano")
    Self.writeQuoted(max(start, end), to: &w)
    Self.write(attributes, to: &w)
    if !events.isEmpty {
      w.key("events")
      w.beginArray()
      for event in events {
        w.beginObject()
        w.key("timeUnixNano")
        Self.writeQuoted(event.time, to: &w)
        w.key("name")
        w.string(event.name)
        Self.write(event.attributes, to: &w)
        w.endObject()
      }
      w.endArray()
    }
    if droppedEvents > 0 {
      w.key("droppedEventsCount")
      w.int(droppedEvents)
    }
    if !links.isEmpty {
      w.key("links")
      w.beginArray()
      for link in links {
        w.beginObject()
        w.key("traceId")
        w.string(traceID)
        w.key("spanId")
        Self.writeHex(link.spanID, to: &w)
        Self.write(link.attributes, to: &w)
        w.endObject()
      }
      w.endArray()
    }
    if let errorMessage {
      w.key("status")
      w.beginObject()
      if !errorMessage.isEmpty {
        w.key("message")
        w.string(errorMessage)
      }
      w.key("code")
      w.int(Self.statusError)
      w.endObject()
    }
    w.endObject()
  }

  /// `"attributes": [{"key": …, "value": {…}}]`, or nothing for none.
  static func write(_ attributes: [Attribute], to w: inout JSONWriter) {
    guard !attributes.isEmpty else { return }
    w.key("attributes")
    w.beginArray()
    for attribute in attributes {
      w.beginObject()
      w.key("key")
      w.string(attribute.key)
      w.key("value")
      w.beginObject()
      switch attribute.value {
      case .string(let text):
        w.key("stringValue")
        w.string(text)
      case .int(let number):
        w.key("intValue")
        if number >= 0 { writeQuoted(UInt64(number), to: &w) } else { w.string(String(number)) }
      case .bool(let flag):
        w.key("boolValue")
        w.bool(flag)
      case .double(let number):
        w.key("doubleValue")
        w.double(number)
      }
      w.endObject()
      w.endObject()
    }
    w.endArray()
  }
}

extension OTLPSpan {
  /// `"0123456789abcdef"`: 16 lowercase hex digits in quotes, written in place (a span id is
  /// written three times a span; making a `String` of each cost a third of the export).
  static func writeHex(_ value: UInt64, to w: inout JSONWriter) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 18) { buffer in
      buffer[0] = UInt8(ascii: "\"")
      buffer[17] = UInt8(ascii: "\"")
      var rest = value
      for index in stride(from: 16, through: 1, by: -1) {
        let digit = UInt8(truncatingIfNeeded: rest & 0xF)
        buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
        rest >>= 4
      }
      w.raw(UnsafeBufferPointer(buffer))
    }
  }

  /// A 64-bit integer as OTLP/JSON writes it: a decimal string (`"1767225600001500000"`).
  static func writeQuoted(_ value: UInt64, to w: inout JSONWriter) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 22) { buffer in
      var index = 21
      buffer[index] = UInt8(ascii: "\"")
      var rest = value
      repeat {
        index -= 1
        buffer[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest > 0
      index -= 1
      buffer[index] = UInt8(ascii: "\"")
      w.raw(UnsafeBufferPointer(rebasing: buffer[index...]))
    }
  }

  /// `code.file.path` and `code.line.number` (OpenTelemetry's semantic conventions) for a
  /// source location (CONTRACT §9): the full path when the trace has it, else the file id.
  static func code(_ source: CodeLocation?) -> [Attribute] {
    guard let source else { return [] }
    return [("code.file.path", .string(source.path ?? source.file)), ("code.line.number", .int(source.line))]
  }
}
