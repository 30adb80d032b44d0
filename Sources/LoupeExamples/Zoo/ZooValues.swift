import Foundation

// The values of the rendering zoo (see `RenderingZoo`): the kinds of values a state holds in
// practice that reflection handles badly — Foundation reference types, existentials, custom
// mirrors, actors, metatypes, closures, weak and unowned references, a `description` that
// traps, and the Foundation value types and errors of every kind.

protocol ZooShape {
  var area: Double { get }
}

struct ZooSquare: ZooShape, Equatable {
  var side: Double
  var area: Double { side * side }
}

final class ZooCircle: ZooShape {
  let radius: Double
  init(radius: Double) { self.radius = radius }
  var area: Double { 3 * radius * radius }
}

protocol ZooService: AnyObject {}
final class ZooLiveService: ZooService {
  var calls = 0
}

/// A class that shows its songs through a `.collection` mirror.
final class ZooPlaylist: CustomReflectable {
  var songs: [String]
  init(_ songs: [String]) { self.songs = songs }
  var customMirror: Mirror { Mirror(self, unlabeledChildren: songs, displayStyle: .collection) }
}

/// A struct whose mirror is a dictionary of its entries.
struct ZooTags: CustomReflectable {
  var entries: [(String, Int)]
  var customMirror: Mirror {
    Mirror(self, children: entries.map { (label: String?.none, value: ($0.0, $0.1) as Any) }, displayStyle: .dictionary)
  }
}

actor ZooCounter {
  var count = 0
  let name = "counter"
}

final class ZooNode {
  var value: Int
  weak var parent: ZooNode?
  unowned(safe) var owner: ZooOwner
  init(_ value: Int, parent: ZooNode?, owner: ZooOwner) {
    self.value = value
    self.parent = parent
    self.owner = owner
  }
}

final class ZooOwner {
  let name: String
  init(_ name: String) { self.name = name }
}

/// A value whose `description` (and `debugDescription`) traps: rendering must never ask.
struct ZooTrap: CustomStringConvertible, CustomDebugStringConvertible {
  var description: String { fatalError("description called on ZooTrap") }
  var debugDescription: String { fatalError("debugDescription called on ZooTrap") }
}

/// A class with no stored properties whose `description` traps.
final class ZooTrapObject: CustomStringConvertible {
  var description: String { fatalError("description called on ZooTrapObject") }
}

/// An enum whose `description` traps.
enum ZooTrapEnum: CustomStringConvertible {
  case a, b(Int)
  var description: String { fatalError("description called on ZooTrapEnum") }
}

final class ZooObjectSubclass: NSObject {
  var title = "first"
  var count = 1
}

enum ZooError: Error {
  case offline
  case status(code: Int)
}

struct ZooStructError: Error {
  var reason: String
}

final class ZooClassError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

struct ZooLocalizedError: LocalizedError {
  var errorDescription: String? { "localized" }
}

/// A state holding an error the common way: `state.error = error` after a failed request.
struct ZooRequestState {
  var isLoading = false
  var error: (any Error)?
}

struct ZooPoint {
  var x: Double
  var y: Double
}

@propertyWrapper
struct ZooClamped {
  var value: Int
  var wrappedValue: Int {
    get { value }
    set { value = min(max(newValue, 0), 10) }
  }
  init(wrappedValue: Int) { value = wrappedValue }
}

struct ZooPlayer {
  @ZooClamped var volume = 3
}

/// Each kind of `Error` a state commonly holds.
enum ZooErrors {
  static func decoding() -> any Error {
    struct Item: Decodable { var id: Int }
    do {
      _ = try JSONDecoder().decode(Item.self, from: Data(#"{"id":"x"}"#.utf8))
      return ZooError.offline
    } catch {
      return error
    }
  }

  static func encoding() -> any Error {
    EncodingError.invalidValue(Double.nan, .init(codingPath: [], debugDescription: "nan"))
  }
}
