import Foundation
import Testing

@testable import LoupeCore

/// Values rendered by ``ValueRenderer`` decode back to themselves through ``RenderedDecoder``:
/// enums with every kind of payload, feature states and actions, Foundation values, numbers at
/// their limits.
@Suite struct RenderedDecoderRoundTripTests {
  typealias Action = Jukebox.Action
  typealias Mode = Jukebox.Mode
  typealias Track = Jukebox.Track

  static let date = Date(timeIntervalSince1970: 1_700_000_000.25)

  static let actions: [Action] = [
    .tracks(.element(id: 1, action: .favoriteTapped)),
    .tracks(.element(id: -7, action: .renamed("Blue in Green"))),
    .tracks(.element(id: 2, action: .played(at: date))),
    .added(Track(id: 3, title: "So What")),
    .addedMany([Track(id: 4, title: "a"), Track(id: 5, title: "b", isFavorite: true)]),
    .addedMany([]),
    .filterChanged(.recent),
    .modeChanged(.idle),
    .modeChanged(.playing(1.5)),
    .modeChanged(.pair(1, "a")),
    .modeChanged(.seeking(to: 3)),
    .modeChanged(.labelled(speed: 2, loop: true)),
    .modeChanged(.mixed(2, loop: false)),
    .modeChanged(.mixed(nil, loop: true)),
    .modeChanged(.many([1, 2, 3])),
    .modeChanged(.many([])),
    .modeChanged(.counts(["0": 1, "a": 2])),
    .modeChanged(.counts(["0": 1])),
    .modeChanged(.counts([:])),
    .playButton(.tapped),
    .cleared(Jukebox.Nothing()),
    .seek(to: 0.25, animated: false),
    .volume(3, muted: nil),
    .volume(3, muted: true),
    .swap(1, 2),
    .startTapped,
    .stopTapped,
    .delegate(.finished(trackID: nil)),
    .delegate(.finished(trackID: 9)),
    .delegate(.failed("")),
  ]

  @Test(arguments: actions) func actionsRoundTrip(_ action: Action) throws {
    #expect(try renderedRoundTrip(action) == action)
  }

  /// What an action renders as, and that it decodes from exactly that.
  @Test func actionsDecodeFromTheirRenderings() throws {
    let renderings: [(Action, String)] = [
      (.tracks(.element(id: 1, action: .favoriteTapped)), #"{"tracks":{"element":{"id":1,"action":"favoriteTapped"}}}"#),
      (.added(Track(id: 3, title: "x")), #"{"added":{"id":3,"title":"x","isFavorite":false}}"#),
      (.modeChanged(.pair(1, "a")), #"{"modeChanged":{"pair":[1,"a"]}}"#),
      (.modeChanged(.mixed(2, loop: false)), #"{"modeChanged":{"mixed":{"0":2,"loop":false}}}"#),
      (.modeChanged(.many([1, 2])), #"{"modeChanged":{"many":[1,2]}}"#),
      (.playButton(.tapped), #"{"playButton":"tapped"}"#),
      (.cleared(Jukebox.Nothing()), #"{"cleared":{}}"#),
      (.startTapped, #""startTapped""#),
    ]
    for (action, text) in renderings {
      #expect(ValueRenderer.render(action).jsonText == text)
      #expect(try RenderedDecoder().decode(Action.self, from: JSONParser.parse(text)) == action)
    }
  }

  /// `JSONEncoder`'s form of the same enums decodes too (`{"startTapped":{}}`, `{"_0": …}`).
  @Test(arguments: actions) func swiftsOwnEncodingDecodes(_ action: Action) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    let text = String(decoding: try encoder.encode(action), as: UTF8.self)
    #expect(try RenderedDecoder().decode(Action.self, from: JSONParser.parse(text)) == action, "\(text)")
  }

  @Test func indirectEnumsRoundTrip() throws {
    let queue = Jukebox.Queue.next(Track(id: 1, title: "a"), then: .next(Track(id: 2, title: "b"), then: .empty))
    #expect(try renderedRoundTrip(queue) == queue)
  }

  @Test func aFullStateRoundTrips() throws {
    var state = Jukebox.State()
    state.tracks = [Track(id: 2, title: "b"), Track(id: 1, title: "a", isFavorite: true)]
    state.filter = .favorites
    state.mode = .seeking(to: 12)
    state.queue = .next(Track(id: 1, title: "a"), then: .empty)
    state.session = UUID(uuidString: "DEADBEEF-DEAD-BEEF-DEAD-BEEFDEADBEEF")
    state.startedAt = Self.date
    state.artwork = URL(string: "https://example.com/a%20b?q=1")
    state.cover = Data("Hello".utf8)
    state.balance = Decimal(string: "12345678901234567890.123")!
    state.volume = 0.1
    state.gain = -0.0
    state.plays = [10: 1, 2: 3, -1: 0]
    state.tags = ["b", "a", "é"]
    state.byFilter = [.all: 1, .recent: 2]
    state.byMode = [.idle: "i", .playing(1.5): "p", .mixed(nil, loop: true): "m"]
    state.grid = [Jukebox.GridKey(row: 1, column: 2): "x", Jukebox.GridKey(row: 0, column: 0): "o"]
    state.byID = [UUID(uuidString: "00000000-0000-0000-0000-000000000001")!: 1]
    state.nested = .some(.some(4))
    state.ratings = [[1, nil], [], [nil]]
    state.selection = IndexSet([7, 1, 2])
    state.priority = .high
    state.bigCount = .max
    state.smallest = .min
    let back = try renderedRoundTrip(state)
    #expect(back == state)
    #expect(back.gain.sign == .minus)
    #expect(try renderedRoundTrip(Jukebox.State()) == Jukebox.State())
  }

  @Test func rawValueEnumsDecodeFromTheirCaseNames() throws {
    #expect(ValueRenderer.render(Jukebox.Filter.recent) == "recent")
    #expect(try renderedRoundTrip(Jukebox.Filter.recent) == .recent)
    #expect(try renderedRoundTrip(Jukebox.Priority.high) == .high)
    // …and from their raw values, as their own `init(from:)` reads them.
    #expect(try RenderedDecoder().decode(Jukebox.Filter.self, from: "Recently played") == .recent)
    #expect(try RenderedDecoder().decode(Jukebox.Priority.self, from: 10) == .high)
  }

  @Test func numbersAtTheirLimits() throws {
    #expect(try renderedRoundTrip([UInt64.max, 0]) == [UInt64.max, 0])
    #expect(try renderedRoundTrip([Int64.min, Int64.max]) == [Int64.min, Int64.max])
    #expect(try renderedRoundTrip([Int8.min, Int8.max]) == [Int8.min, Int8.max])
    #expect(try renderedRoundTrip(UInt.max) == UInt.max)
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      let big = [Int128(Int.max) + 1, Int128.min, 5]
      #expect(try renderedRoundTrip(big) == big)
      #expect(try renderedRoundTrip(UInt128.max) == UInt128.max)
    }
    let floats: [Float] = [0.1, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -2.5, .infinity, -.infinity]
    #expect(try renderedRoundTrip(floats) == floats)
    let doubles: [Double] = [0.1, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 2.0, 1e300, .infinity, -.infinity]
    #expect(try renderedRoundTrip(doubles) == doubles)
    let specials = try renderedRoundTrip([Double.nan, -0.0, 0.0])
    #expect(specials[0].isNaN && specials[1] == 0 && specials[1].sign == .minus && specials[2].sign == .plus)
    #expect(try renderedRoundTrip(Float.nan).isNaN)
    let decimals = ["19.99", "1e30", "-0.5", "12345678901234567890.123", "0"].map { Decimal(string: $0)! }
    #expect(try renderedRoundTrip(decimals) == decimals)
    #expect(try renderedRoundTrip(Decimal.nan).isNaN)
  }

  @Test func foundationValuesRoundTrip() throws {
    let dates = [0, 1_700_000_000.25, -1.5, 4_102_444_800.999, 1_000_000_000.001].map(Date.init(timeIntervalSince1970:))
    #expect(try renderedRoundTrip(dates) == dates)
    // A date is rendered to the millisecond, cut (not rounded): 1_700_000_000.123 is held as
    // …0.1229999 and renders as ".122Z". What decodes renders the same.
    let date = Date(timeIntervalSince1970: 1_700_000_000.123)
    #expect(ValueRenderer.render(try renderedRoundTrip(date)) == ValueRenderer.render(date))
    let urls = ["https://example.com/a%20b?q=1", "file:///tmp/x.loupe"].compactMap(URL.init(string:))
    #expect(try renderedRoundTrip(urls) == urls)
    let data = [Data(), Data("Hello".utf8), Data((0...255).map { UInt8($0) })]
    #expect(try renderedRoundTrip(data) == data)
    #expect(try renderedRoundTrip(Duration.milliseconds(1500)) == .milliseconds(1500))
    #expect(try renderedRoundTrip(Locale(identifier: "fr_FR")).identifier == "fr_FR")
    #expect(try renderedRoundTrip(TimeZone(identifier: "Europe/Paris")!) == TimeZone(identifier: "Europe/Paris")!)
    let ids = [UUID(), UUID()]
    #expect(try renderedRoundTrip(ids) == ids)
  }

  /// Dates given as seconds since 1970, and in other ISO 8601 spellings.
  @Test func datesAlsoDecodeFromSecondsAndOtherISOForms() throws {
    let decoder = RenderedDecoder()
    #expect(try decoder.decode(Date.self, from: 1_700_000_000) == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(try decoder.decode(Date.self, from: 1.5) == Date(timeIntervalSince1970: 1.5))
    #expect(try decoder.decode(Date.self, from: "2023-11-14T22:13:20Z") == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(try decoder.decode(Date.self, from: "2023-11-14T23:13:20+01:00") == Date(timeIntervalSince1970: 1_700_000_000))
  }

  @Test func optionalsAndCollections() throws {
    let nested: [Int??] = [.none, .some(.some(1))]
    #expect(try renderedRoundTrip(nested) == nested)
    // `.some(nil)` renders as `null`, like `nil`: it decodes as `nil`.
    #expect(try renderedRoundTrip(Int??.some(nil)) == Int??.none)
    let sets: Set<Int> = [10, 2, 33, -5]
    #expect(try renderedRoundTrip(sets) == sets)
    let dictionaries: [String: [Int: Bool]] = ["b": [1: true], "a": [:], "": [-3: false]]
    #expect(try renderedRoundTrip(dictionaries) == dictionaries)
    let numericStrings: [String: Int] = ["1": 1, "true": 2, "null": 3, "{}": 4]
    #expect(try renderedRoundTrip(numericStrings) == numericStrings)
    let boolKeys: [Bool: String] = [true: "t", false: "f"]
    #expect(try renderedRoundTrip(boolKeys) == boolKeys)
    let doubleKeys: [Double: Int] = [1.5: 1, -2: 2]
    #expect(try renderedRoundTrip(doubleKeys) == doubleKeys)
    let tracks: IdentifiedArrayOf<Track> = [Track(id: 3, title: "c"), Track(id: 1, title: "a")]
    #expect(try renderedRoundTrip(tracks) == tracks)
    #expect(try renderedRoundTrip(tracks).ids == [3, 1])
    let strings = ["", "tab\tquote\"nul\u{0}👍🏽", "e\u{301}", "é", "<redacted> is fine inside text"]
    #expect(try renderedRoundTrip(strings) == strings)
  }

  /// Classes render their stored properties like structs; a class whose subclass calls
  /// `super.init(from:)` reads the same object.
  @Test func classesRoundTrip() throws {
    let chain = try renderedRoundTrip(Chain(1, next: Chain(2)))
    #expect(chain.value == 1 && chain.next?.value == 2 && chain.next?.next == nil)
    #expect(ValueRenderer.render(LoopingChain(3, loops: true)).jsonText == #"{"value":3,"next":null,"loops":true}"#)
    let looping = try renderedRoundTrip(LoopingChain(3, loops: true))
    #expect(looping.value == 3 && looping.loops)
  }

  /// `IdentifiedArray` encodes as the array of its elements.
  @Test func identifiedArraysEncodeAsArrays() throws {
    let tracks: IdentifiedArrayOf<Track> = [Track(id: 3, title: "c")]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(tracks), as: UTF8.self) == #"[{"id":3,"isFavorite":false,"title":"c"}]"#)
  }
}
