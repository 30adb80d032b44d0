import Foundation
import Testing

@testable import LoupeCore

// Feature-style types, as a TCA app declares them, for the rendered-form decoder's tests.

struct Jukebox {
  struct Track: Codable, Equatable, Identifiable, Sendable {
    var id: Int
    var title: String
    var isFavorite = false
  }

  enum Filter: String, Codable, CaseIterable, Sendable { case all = "All", favorites = "Favorites", recent = "Recently played" }
  enum Priority: Int, Codable, CaseIterable { case low = 1, high = 10 }

  struct GridKey: Codable, Hashable { var row: Int; var column: Int }

  enum Mode: Codable, Hashable, Sendable {
    case idle
    case playing(Double)
    case pair(Int, String)
    case seeking(to: Int)
    case labelled(speed: Int, loop: Bool)
    case mixed(Int?, loop: Bool)
    case many([Int])
    case counts([String: Int])
  }

  indirect enum Queue: Codable, Equatable {
    case empty
    case next(Track, then: Queue)
  }

  enum TrackAction: Codable, Equatable, Sendable {
    case favoriteTapped
    case renamed(String)
    case played(at: Date)
  }

  /// As `IdentifiedAction` in the Loupe module.
  enum Element<ID: Codable & Hashable & Sendable, Action: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    case element(id: ID, action: Action)
  }

  enum PlayButton {
    enum Action: Codable, Equatable, Sendable { case tapped }
  }

  struct Nothing: Codable, Equatable, Sendable {}

  enum Action: Codable, Equatable, Sendable {
    case tracks(Element<Int, TrackAction>)
    case added(Track)
    case addedMany([Track])
    case filterChanged(Filter)
    case modeChanged(Mode)
    case playButton(PlayButton.Action)
    case cleared(Nothing)
    case seek(to: Double, animated: Bool)
    case volume(Int, muted: Bool?)
    case swap(Int, Int)
    case startTapped
    case stopTapped
    case delegate(Delegate)

    enum Delegate: Codable, Equatable, Sendable { case finished(trackID: Int?), failed(String) }
  }

  struct State: Codable, Equatable {
    var tracks: IdentifiedArrayOf<Track> = []
    var filter = Filter.all
    var mode = Mode.idle
    var queue = Queue.empty
    var session: UUID?
    var startedAt: Date?
    var artwork: URL?
    var cover: Data?
    var balance: Decimal = 0
    var volume: Float = 0.5
    var gain = 0.0
    var plays: [Int: Int] = [:]
    var tags: Set<String> = []
    var byFilter: [Filter: Int] = [:]
    var byMode: [Mode: String] = [:]
    var grid: [GridKey: String] = [:]
    var byID: [UUID: Int] = [:]
    var nested: Int?? = .none
    var ratings: [[Int?]] = []
    var selection = IndexSet()
    var priority = Priority.low
    var bigCount: UInt64 = 0
    var smallest: Int64 = 0
  }
}

/// A class that points back at itself.
class Chain: Codable {
  var value: Int
  var next: Chain?
  init(_ value: Int, next: Chain? = nil) {
    self.value = value
    self.next = next
  }
}

/// A raw-value enum that is not `CaseIterable`.
enum Tint: String, Codable { case red = "Red", blue = "Blue" }

/// A type whose own `init(from:)` refuses some values.
struct EvenNumber: Decodable, Equatable {
  struct Odd: Error {}
  var value: Int
  init(from decoder: any Decoder) throws {
    value = try decoder.singleValueContainer().decode(Int.self)
    guard value % 2 == 0 else { throw Odd() }
  }
}

/// Renders `value`, writes and parses the JSON (as on the wire), and decodes it back.
func renderedRoundTrip<T: Decodable>(_ value: T, as type: T.Type = T.self, options: RenderOptions = .default) throws -> T {
  let text = ValueRenderer.render(value, options: options).jsonText
  return try RenderedDecoder().decode(T.self, from: try JSONParser.parse(text))
}

/// The error decoding `json` as `type` gives, as text; `nil` when it decodes.
func renderedDecodingError<T: Decodable>(_ type: T.Type, _ json: JSON) -> String? {
  do {
    _ = try RenderedDecoder().decode(T.self, from: json)
    return nil
  } catch {
    return error.description
  }
}

/// A subclass that decodes its superclass's properties from the same object.
final class LoopingChain: Chain {
  var loops: Bool
  init(_ value: Int, loops: Bool) {
    self.loops = loops
    super.init(value)
  }
  private enum CodingKeys: String, CodingKey { case loops }
  required init(from decoder: any Decoder) throws {
    loops = try decoder.container(keyedBy: CodingKeys.self).decode(Bool.self, forKey: .loops)
    try super.init(from: decoder)
  }
}
