import LoupeCore

/// The breakpoints the editor set, and whether an event hits one (CONTRACT §11):
/// - source breakpoints: lines that send actions or create effects (the event's `source`);
/// - function breakpoints: action-label globs (`*.onAppear`; a pattern without a dot also
///   matches the label's last part, so `onAppear` works too);
/// - data breakpoints: a store's state path — stop when a change touches it (the path, inside
///   it, or a container of it);
/// - exception filters: `warning` and the `loupe doctor` codes (``DoctorSignals``).
struct DAPBreakpoints: Sendable {
  struct Line: Sendable {
    var id: Int
    var file: DAPSourceMatch
    var line: Int
  }

  struct Function: Sendable {
    var id: Int
    var glob: Glob
  }

  struct Data: Sendable {
    var id: Int
    var store: String
    var path: StatePath
  }

  /// Source breakpoints by the editor's source key (`path` or `name`).
  var lines: [String: [Line]] = [:]
  var functions: [Function] = []
  var data: [Data] = []
  var exceptionFilters: Set<String> = []
  private var nextID = 1

  mutating func newID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  var isEmpty: Bool { lines.values.allSatisfy(\.isEmpty) && functions.isEmpty && data.isEmpty && exceptionFilters.isEmpty }

  /// `PageFeature.Action.onAppear` against `*.onAppear`, or `onAppear` (no dot: the last part).
  static func functionMatches(_ glob: Glob, _ label: String) -> Bool {
    if glob.matches(label) { return true }
    guard !glob.pattern.contains("."), let dot = label.lastIndex(of: ".") else { return false }
    return glob.matches(String(label[label.index(after: dot)...]))
  }

  /// Whether a change at `changed` touches `watched`: the same path, inside it, or around it.
  static func touches(_ changed: StatePath, _ watched: StatePath) -> Bool {
    changed.hasPrefix(watched) || watched.hasPrefix(changed)
  }
}

/// A source file as the editor names it, matched against an event's `#fileID`/`#filePath`.
struct DAPSourceMatch: Sendable {
  var path: String?
  var name: String?

  var key: String { path ?? name ?? "" }

  /// The same `#filePath` when the event has one; otherwise the same file name (the `#fileID`'s
  /// last part), since a trace recorded with `LOUPE_SOURCE_PATHS=off` has only `Module/File.swift`.
  func matches(_ location: CodeLocation) -> Bool {
    if let path, let eventPath = location.path { return Self.normalized(path) == Self.normalized(eventPath) }
    let fileName = Self.lastComponent(location.file)
    if let path { return Self.lastComponent(path) == fileName }
    if let name { return Self.lastComponent(name) == fileName }
    return false
  }

  static func lastComponent(_ path: String) -> String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
  }

  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }
}
