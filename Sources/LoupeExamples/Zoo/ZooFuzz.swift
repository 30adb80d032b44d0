import Foundation
import Loupe

/// Random compositions of the zoo's values — in arrays, dictionaries, optionals, tuples,
/// structs, classes and enums — rendered, diffed, and the diff applied back (it must give the
/// new rendering exactly). Seeded, so a failing run can be replayed.
enum ZooFuzz {
  struct Box {
    var first: Any
    var second: Any?
  }

  final class Holder {
    var held: Any
    init(_ held: Any) { self.held = held }
  }

  enum Tree {
    case leaf(Any)
    case pair(Any, label: Any)
    case empty
  }

  /// SplitMix64.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let leaves: [@Sendable () -> Any] = [
    { NSError(domain: "Net", code: 7) },
    { NSError(domain: "Net", code: 8, userInfo: ["k": NSNumber(value: 1)]) },
    { ZooError.status(code: 404) as any Error },
    { ZooStructError(reason: "r") as any Error },
    { CocoaError(.fileNoSuchFile) },
    { URLError(.timedOut) },
    { ZooErrors.decoding() },
    { NSArray(array: [1, "a"]) },
    { NSDictionary(dictionary: ["a": NSNumber(value: 2)]) },
    { NSNumber(value: 2.5) },
    { NSString(string: "ns") },
    { NSDate(timeIntervalSince1970: 5) },
    { NSData(data: Data([1, 2, 3])) },
    { ZooObjectSubclass() },
    { ZooSquare(side: 2) as any ZooShape },
    { ZooCircle(radius: 1) as any ZooShape },
    { ZooLiveService() as any ZooService },
    { ZooPlaylist(["a", "b"]) },
    { ZooTags(entries: [("x", 1)]) },
    { ZooCounter() },
    { Int.self as Any.Type },
    { ZooSquare.self as any ZooShape.Type },
    { { 1 } as () -> Int },
    { ZooTrap() },
    { ZooTrapObject() },
    { ZooTrapEnum.b(1) },
    { ZooPlayer(volume: 2) },
    { \ZooPoint.x as PartialKeyPath<ZooPoint> },
    { Date(timeIntervalSince1970: 1) },
    { URL(string: "https://example.com")! },
    { UUID() },
    { Decimal(string: "1.25")! },
    { Data(count: 100) },
    { 1 },
    { "text" },
    { Double.nan },
    { Optional<Int>.none as Any },
  ]

  static func value(depth: Int, _ random: inout Generator) -> Any {
    let choice = depth >= 3 ? 0 : Int.random(in: 0..<9, using: &random)
    switch choice {
    case 0, 1: return leaves[Int.random(in: 0..<leaves.count, using: &random)]()
    case 2: return (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth + 1, &random) }
    case 3:
      var dictionary: [String: Any] = [:]
      for key in ["a", "b", "c"].prefix(Int.random(in: 0...3, using: &random)) { dictionary[key] = value(depth: depth + 1, &random) }
      return dictionary
    case 4: return Bool.random(using: &random) ? Optional(value(depth: depth + 1, &random)) as Any : Optional<Any>.none as Any
    case 5: return (value(depth: depth + 1, &random), label: value(depth: depth + 1, &random))
    case 6: return Box(first: value(depth: depth + 1, &random), second: Bool.random(using: &random) ? value(depth: depth + 1, &random) : nil)
    case 7: return Holder(value(depth: depth + 1, &random))
    default:
      switch Int.random(in: 0..<3, using: &random) {
      case 0: return Tree.leaf(value(depth: depth + 1, &random))
      case 1: return Tree.pair(value(depth: depth + 1, &random), label: value(depth: depth + 1, &random))
      default: return Tree.empty
      }
    }
  }

  static func run(seed: UInt64, count: Int) {
    var random = Generator(state: seed)
    var unappliable = 0
    for iteration in 0..<count {
      let old = value(depth: 0, &random)
      let new = Bool.random(using: &random) ? old : value(depth: 0, &random)
      let a = ValueRenderer.render(old)
      let b = ValueRenderer.render(new)
      let changes = StateDiff.diff(old, new)
      var applied = a
      let applies = (try? changes.forEach { try $0.apply(to: &applied) }) != nil && applied == b
      if !applies {
        unappliable += 1
        print("fuzz: iteration \(iteration) does not apply: \(a.jsonText) -> \(b.jsonText) by \(changes.map(\.json.jsonText))")
      }
      _ = ValueText.compact(a)
      _ = DiffText.lines(a, b)
    }
    print("fuzz: \(count) compositions, \(unappliable) diffs that do not apply")
  }
}
