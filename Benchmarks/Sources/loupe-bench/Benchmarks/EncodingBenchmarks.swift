import Foundation
import BenchFixtures
import Loupe

/// Event encoding: Loupe's hand-written writer against Foundation's `JSONEncoder` with
/// Codable mirror types, on the same events, one JSON object per event (as a trace line or
/// an element of a `loupe/events` batch).
enum EncodingBenchmarks {
  static let all: [Benchmark] = [mix]

  static let mix = Benchmark(id: "encode.mix", what: "event encoding (typical mix of kinds)", pair: { context in
    let events = EventMix.events(count: context.smoke ? 200 : 2_000)
    let mirrors = events.map(CodableEvents.mirror(of:))
    let encoder = JSONEncoder()
    try check(events, mirrors, encoder: encoder)
    let average = events.reduce(0) { $0 + $1.jsonText.utf8.count } / events.count
    var writer = JSONWriter(capacity: 1 << 20)
    var bytes = 0
    return Pair(
      loupe: { n in
        var index = 0
        for _ in 0..<n {
          events[index].encode(into: &writer)
          writer.rawByte(0x0A)
          index += 1
          if index == events.count {
            index = 0
            bytes &+= writer.count
            writer.reset()
          }
        }
        blackHole(writer.count)
      },
      other: { n in
        var index = 0
        for _ in 0..<n {
          let data = try! encoder.encode(mirrors[index])
          bytes &+= data.count
          index = index + 1 == mirrors.count ? 0 : index + 1
        }
      },
      rows: { comparison in
        blackHole(bytes)
        return [.timed(
          "encode.mix", "event encoding (typical mix of kinds), per event", comparison, target: .fasterBy(5),
          note: "\(events.count) events cycled, \(average) bytes per event on average; JSONEncoder() with default options")]
      })
  })

  /// Every mirror must encode to the same JSON as its event (member order and the spelling
  /// of numbers aside: `1.0` and `1` are the same JSON number).
  static func check(_ events: [Event], _ mirrors: [CodableEvents.AnyEvent], encoder: JSONEncoder) throws {
    for (event, mirror) in zip(events, mirrors) {
      let ours = try JSONParser.parse(event.jsonText)
      let theirs = try JSONParser.parse(Array(encoder.encode(mirror)))
      guard canonical(ours) == canonical(theirs) else {
        throw BenchmarkError("""
          JSONEncoder's output differs from Loupe's for seq \(event.seq):
            \(event.jsonText)
            \(String(decoding: try encoder.encode(mirror), as: UTF8.self))
          """)
      }
    }
  }

  static func canonical(_ json: JSON) -> JSON {
    switch json {
    case .int(let i): .double(Double(i))
    case .array(let elements): .array(elements.map(canonical))
    case .object(let object):
      .object(JSONObject(object.members.map { JSONObject.Member($0.key, canonical($0.value)) }.sorted { $0.key < $1.key }))
    default: json
    }
  }
}
