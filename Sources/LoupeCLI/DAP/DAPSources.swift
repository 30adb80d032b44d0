import Foundation
import LoupeCore

/// Where the file behind a frame is on this machine.
///
/// A trace carries each event's `#fileID` (`MyApp/PageFeature.swift`) and, unless it was
/// recorded with `LOUPE_SOURCE_PATHS=off`, the `#filePath` of the machine that built the
/// program. A bug report recorded elsewhere names paths that do not exist here, and editors
/// that are sent one complain at every stop. So a location is resolved the way other adapters
/// do it (lldb-dap's `sourceMap`):
///
/// 1. the recorded `#filePath`, when that file exists here;
/// 2. the recorded path with the longest matching `sourceMap` prefix rewritten, when that
///    file exists;
/// 3. the `#fileID` looked up under the workspace (`sourceRoot`, else the launch's `cwd`,
///    else the adapter's own directory): a file of that name whose folder is the module's,
///    preferring the one that shares most of the recorded path's tail;
/// 4. otherwise a `sourceReference` whose text says that the file is not on this machine and
///    how to point the adapter at it, with as many lines as the frames need, so that no
///    editor puts its cursor outside the buffer.
struct DAPSources {
  /// `sourceMap` pairs, recorded prefix → local prefix.
  var sourceMap: [(from: String, to: String)] = []
  /// Folders searched for a `#fileID`, in order.
  var roots: [String] = []

  /// A file the frames name that was not found: what its reference's text says.
  struct Missing {
    var fileID: String
    var recordedPath: String?
    var highestLine = 1
  }

  private var resolved: [String: String?] = [:]
  private var missing: [Int: Missing] = [:]
  private var referenceOfKey: [String: Int] = [:]
  private var filesByName: [String: [String]]?
  /// Local files handed to the editor, which the `source` request may serve.
  private var localPaths: Set<String> = []

  init(sourceMap: [(from: String, to: String)] = [], roots: [String] = []) {
    self.sourceMap = sourceMap
    self.roots = roots
  }

  /// The most files a workspace search looks at; past it the search stops (a home directory
  /// given as `cwd` must not stall a stop).
  static let searchLimit = 50_000
  static let skippedFolders: Set<String> = [".build", ".git", ".swiftpm", "DerivedData", "node_modules", "Pods", "Carthage"]

  /// The local file for `location`, or `nil` when none was found.
  mutating func localPath(for location: CodeLocation) -> String? {
    let key = Self.key(location)
    if let cached = resolved[key] { return cached }
    let path = find(location)
    resolved[key] = path
    return path
  }

  /// A DAP `Source` for `location`: its local path, or a reference to an explanatory text.
  mutating func source(for location: CodeLocation) -> JSON {
    let name = DAPSourceMatch.lastComponent(location.file)
    if let path = localPath(for: location) {
      localPaths.insert(path)
      return ["name": .string(name), "path": .string(path)]
    }
    let key = Self.key(location)
    let reference: Int
    if let known = referenceOfKey[key] {
      reference = known
    } else {
      reference = referenceOfKey.count + 1
      referenceOfKey[key] = reference
      missing[reference] = Missing(fileID: location.file, recordedPath: location.path)
    }
    if let highest = missing[reference]?.highestLine, highest < location.line { missing[reference]?.highestLine = location.line }
    return [
      "name": .string(name), "sourceReference": .int(reference), "presentationHint": "deemphasize",
      "origin": "not on this machine",
    ]
  }

  /// Whether `path` is a local file a frame was given (for the `source` request).
  func servesLocally(_ path: String) -> Bool { localPaths.contains(path) }

  /// Whether a breakpoint set in `file` is on `location`'s file: the recorded one, or the
  /// local file it resolves to.
  mutating func matches(_ file: DAPSourceMatch, _ location: CodeLocation) -> Bool {
    if file.matches(location) { return true }
    guard let path = file.path, let local = localPath(for: location) else { return false }
    return DAPSourceMatch.normalized(path) == DAPSourceMatch.normalized(local)
  }

  /// The text served for a `sourceReference` handed out by ``source(for:)``.
  func text(ofReference reference: Int) -> String? {
    guard let file = missing[reference] else { return nil }
    var lines = ["// \(file.fileID) is not on this machine."]
    if let recorded = file.recordedPath { lines.append("// It was recorded at \(recorded).") }
    lines.append(
      "// To open the real file, add \"sourceMap\": [[\"<recorded folder>\", \"<folder here>\"]] or \"sourceRoot\": \"<your checkout>\" to the launch configuration.")
    let count = min(max(file.highestLine, lines.count), 1_000_000)
    while lines.count < count { lines.append("") }
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: - Finding

  private mutating func find(_ location: CodeLocation) -> String? {
    if let path = location.path {
      if Self.isFile(path) { return path }
      if let mapped = mapped(path), Self.isFile(mapped) { return mapped }
    }
    let name = DAPSourceMatch.lastComponent(location.file)
    let module = location.file.split(separator: "/").dropLast().last.map(String.init)
    var candidates = index()[name] ?? []
    if let module {
      let inModule = candidates.filter { $0.split(separator: "/").dropLast().contains { String($0) == module } }
      if !inModule.isEmpty { candidates = inModule }
    }
    guard !candidates.isEmpty else { return nil }
    guard let recorded = location.path, candidates.count > 1 else { return candidates.sorted().first }
    let tail = recorded.split(separator: "/")
    return candidates.max { a, b in
      let (x, y) = (Self.sharedTail(tail, a), Self.sharedTail(tail, b))
      return x != y ? x < y : a > b
    }
  }

  private func mapped(_ path: String) -> String? {
    var best: (from: String, to: String)?
    for pair in sourceMap where path == pair.from || path.hasPrefix(pair.from.hasSuffix("/") ? pair.from : pair.from + "/") {
      if best == nil || pair.from.count > best!.from.count { best = pair }
    }
    guard let best else { return nil }
    let rest = path.dropFirst(best.from.count).drop { $0 == "/" }
    return rest.isEmpty ? best.to : (best.to.hasSuffix("/") ? best.to : best.to + "/") + rest
  }

  /// File name → paths under the roots, made on the first search and kept.
  private mutating func index() -> [String: [String]] {
    if let filesByName { return filesByName }
    var found: [String: [String]] = [:]
    var seen = 0
    for root in roots {
      guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
      while let relative = walker.nextObject() as? String, seen < Self.searchLimit {
        seen += 1
        let last = DAPSourceMatch.lastComponent(relative)
        if last.hasPrefix(".") || Self.skippedFolders.contains(last) {
          if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { walker.skipDescendants() }
          continue
        }
        guard last.hasSuffix(".swift") else { continue }
        found[last, default: []].append((root.hasSuffix("/") ? root : root + "/") + relative)
      }
    }
    filesByName = found
    return found
  }

  private static func sharedTail(_ tail: [Substring], _ path: String) -> Int {
    let parts = path.split(separator: "/")
    var count = 0
    while count < min(tail.count, parts.count), tail[tail.count - 1 - count] == parts[parts.count - 1 - count] { count += 1 }
    return count
  }

  private static func isFile(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && !directory.boolValue
  }

  private static func key(_ location: CodeLocation) -> String { location.file + "\u{0}" + (location.path ?? "") }
}
