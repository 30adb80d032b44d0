import Foundation

/// Where a fixture named in a test lives: an absolute path as it is, a relative one next to
/// the test file that names it (`#filePath`), as snapshot-testing libraries do, so fixtures
/// sit beside their tests whatever the working directory.
enum FixturePath {
  static func resolve(_ path: String, relativeTo filePath: StaticString) -> String {
    if path.hasPrefix("/") { return path }
    let directory = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
    return directory.appendingPathComponent(path).standardizedFileURL.path
  }
}
