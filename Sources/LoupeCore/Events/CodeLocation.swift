/// Where in the program's code an event came from (CONTRACT §9): `source: {file, line, path?}`.
///
/// `file` is the `#fileID` (`LoupeExamples/PageFeature.swift`), `line` the line, `path` the
/// `#filePath` (left out with `LOUPE_SOURCE_PATHS=off`, see ``EventBus/includesSourcePaths``).
///
/// The store captures locations with default arguments and keeps them as the compiler's
/// static strings: making one on the program's thread copies three words and formats
/// nothing. They become `String`s only when something reads ``file`` or ``path``, and the
/// JSON writer copies their bytes straight into its buffer.
///
/// ```swift
/// let source = CodeLocation(file: "MyApp/PageFeature.swift", line: 31)
/// source.description        // "MyApp/PageFeature.swift:31"
/// source.shortDescription   // "PageFeature.swift:31"
/// ```
public struct CodeLocation: Sendable, Hashable, CustomStringConvertible {
  @usableFromInline enum Storage: Sendable {
    /// Captured by the store: static strings, nothing formatted.
    case captured(fileID: StaticString, filePath: StaticString?, line: UInt)
    /// Read from a trace or the wire, or made by hand.
    case text(file: String, line: Int, path: String?)
  }

  @usableFromInline let storage: Storage

  /// A location read from a trace or built by hand.
  public init(file: String, line: Int, path: String? = nil) {
    storage = .text(file: file, line: line, path: path)
  }

  /// A location captured with `#fileID`, `#filePath` and `#line` (pass `filePath: nil` to
  /// leave the path out). Copies the arguments; formats nothing.
  @inlinable
  public init(fileID: StaticString, filePath: StaticString?, line: UInt) {
    self.init(storage: .captured(fileID: fileID, filePath: filePath, line: line))
  }

  @usableFromInline
  init(storage: Storage) { self.storage = storage }

  /// The `#fileID`: `Module/File.swift`.
  public var file: String {
    switch storage {
    case .captured(let fileID, _, _): fileID.description
    case .text(let file, _, _): file
    }
  }

  /// The line, from 1.
  public var line: Int {
    switch storage {
    case .captured(_, _, let line): Int(truncatingIfNeeded: line)
    case .text(_, let line, _): line
    }
  }

  /// The `#filePath`, when it was kept.
  public var path: String? {
    switch storage {
    case .captured(_, let filePath, _): filePath?.description
    case .text(_, _, let path): path
    }
  }

  /// This location without its `path`.
  public var withoutPath: CodeLocation {
    switch storage {
    case .captured(let fileID, _, let line): CodeLocation(fileID: fileID, filePath: nil, line: line)
    case .text(let file, let line, _): CodeLocation(file: file, line: line)
    }
  }

  /// `Module/File.swift:42`.
  public var description: String { "\(file):\(line)" }

  /// `File.swift:42`: the file name without its module or folders, and the line — what the
  /// readers print after an action or an effect.
  public var shortDescription: String {
    let file = self.file
    let name = file.lastIndex(of: "/").map { file[file.index(after: $0)...] } ?? file[...]
    return "\(name):\(line)"
  }

  public static func == (a: CodeLocation, b: CodeLocation) -> Bool {
    a.line == b.line && a.file == b.file && a.path == b.path
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(file)
    hasher.combine(line)
    hasher.combine(path)
  }
}

extension CodeLocation {
  /// Writes `{"file":…,"line":…,"path":…}` (`path` only when kept). Captured locations are
  /// copied from their static strings without making a `String`.
  public func encode(into w: inout JSONWriter) {
    w.beginObject()
    switch storage {
    case .captured(let fileID, let filePath, let line):
      w.key("file"); w.string(staticText: fileID)
      w.key("line"); w.int(Int(truncatingIfNeeded: line))
      if let filePath { w.key("path"); w.string(staticText: filePath) }
    case .text(let file, let line, let path):
      w.key("file"); w.string(file)
      w.key("line"); w.int(line)
      if let path { w.key("path"); w.string(path) }
    }
    w.endObject()
  }

  /// The location as a JSON object.
  public var json: JSON {
    var object: JSONObject = ["file": .string(file), "line": .int(line)]
    if let path { object.append("path", .string(path)) }
    return .object(object)
  }
}
