/// The encoded `"source":{…}` members of captured code locations, kept by a writer that
/// encodes many events (the trace writer), so that a location the program sends from again
/// and again is escaped and formatted once.
///
/// Only locations captured by the store are kept (``CodeLocation/Storage/captured``): their
/// `#fileID` and `#filePath` are static strings at addresses that never change and never
/// hold other text, so the addresses, lengths and line say which text a location encodes
/// to, exactly. Locations made of `String`s are encoded each time.
///
/// A small table indexed by the location's bits: a location that collides with another
/// replaces it, so the table never grows.
package struct SourceTexts: Sendable {
  struct Key: Equatable {
    var file: UInt
    var fileCount: Int
    var path: UInt
    var pathCount: Int
    var line: UInt
  }

  static let slots = 64
  /// Each slot's key (`nil` while empty) and text (`"source":{"file":…,"line":…,"path":…}`,
  /// with no leading comma), in arrays of their own so that a lookup
  /// reads them in place.
  private var keys: [Key?] = Array(repeating: nil, count: slots)
  private var texts: [[UInt8]] = Array(repeating: [], count: slots)

  package init() {}

  /// Writes `"source":{…}` for `location`: from the table when it is a captured location seen
  /// before, encoded (and, when captured, kept) otherwise.
  mutating func write(_ location: CodeLocation, into w: inout JSONWriter) {
    guard let key = Self.key(location) else {
      w.key("source")
      location.encode(into: &w)
      return
    }
    let slot = Self.slot(key)
    if keys[slot] != key {
      var text = JSONWriter(capacity: 160)
      text.key("source")
      location.encode(into: &text)
      keys[slot] = key
      texts[slot] = text.bytes
    }
    w.separate()
    texts[slot].withUnsafeBufferPointer { w.rawBytes($0) }
    w.needsComma = true
  }

  /// The key of a captured location whose static strings are stored as bytes (not as one
  /// Unicode scalar); `nil` for any other.
  static func key(_ location: CodeLocation) -> Key? {
    guard case .captured(let fileID, let filePath, let line) = location.storage, fileID.hasPointerRepresentation
    else { return nil }
    var key = Key(
      file: UInt(bitPattern: fileID.utf8Start), fileCount: fileID.utf8CodeUnitCount, path: 0, pathCount: -1, line: line)
    if let filePath {
      guard filePath.hasPointerRepresentation else { return nil }
      key.path = UInt(bitPattern: filePath.utf8Start)
      key.pathCount = filePath.utf8CodeUnitCount
    }
    return key
  }

  static func slot(_ key: Key) -> Int {
    let mixed = (key.file &>> 3) ^ (key.path &>> 3) ^ (key.line &* 0x9E37_79B9)
    return Int(truncatingIfNeeded: mixed ^ (mixed &>> 7)) & (slots - 1)
  }
}
