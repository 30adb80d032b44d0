import Foundation
import Testing
@testable import LoupeCLI
import LoupeSession

/// Paths of the committed fixtures and goldens.
enum Fixtures {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Compares `actual` (with fixture paths made relative) with the golden file
  /// `Fixtures/golden/NAME`; with `LOUPE_UPDATE_GOLDEN=1`
  /// in the environment, rewrites it instead.
  static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    // Goldens name fixtures relative to the fixtures directory, wherever the clone is.
    let actual = actual.replacingOccurrences(of: directory.path + "/", with: "")
    let url = directory.appendingPathComponent("golden").appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["LOUPE_UPDATE_GOLDEN"] == "1" {
      try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try! actual.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record("Missing golden file \(name); run with LOUPE_UPDATE_GOLDEN=1 to create it", sourceLocation: sourceLocation)
      return
    }
    if actual != expected {
      let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
      let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let first = zip(a, e).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, e.count)
      Issue.record(
        """
        Output differs from golden \(name) at line \(first + 1) (Expected: −, Actual: +):
        − \(first < e.count ? String(e[first]) : "<end>")
        + \(first < a.count ? String(a[first]) : "<end>")
        """, sourceLocation: sourceLocation)
    }
  }
}

/// The result of running `loupe`.
struct Run {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs `loupe` in this process with in-memory output (no terminal, no colour unless asked).
func loupe(_ arguments: String..., color: Bool = false) async -> Run {
  await loupe(arguments, color: color)
}

func loupe(_ arguments: [String], color: Bool = false) async -> Run {
  let context = CommandContext(
    stdout: Output(capturingWithColor: color), stderr: Output(capturingWithColor: false), environment: [:],
    executableDirectory: BuiltProducts.directory)
  let status = await LoupeCLI.run(arguments, in: context)
  return Run(status: status, stdout: context.stdout.text, stderr: context.stderr.text)
}

/// The build products directory (where `loupe` and `loupe-examples` are) and running them.
enum BuiltProducts {
  static let directory: String? = {
    var candidates: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().path)
    }
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().path)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      candidates.append(bundle.bundleURL.deletingLastPathComponent().path)
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/loupe") }
  }()

  static func executable(_ name: String) throws -> String {
    guard let directory else { throw NotBuilt(name: name) }
    let path = directory + "/" + name
    guard FileManager.default.isExecutableFile(atPath: path) else { throw NotBuilt(name: name) }
    return path
  }

  struct NotBuilt: Error, CustomStringConvertible {
    var name: String
    var description: String { "The '\(name)' executable is not in the build products; run 'swift build' first." }
  }

  /// Runs a built executable (or the program at an absolute path) to its end and returns its output.
  static func run(
    _ name: String, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
    closeStdin: Bool = true, currentDirectory: String? = nil
  ) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: name.hasPrefix("/") ? name : try executable(name))
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = nil
    env["LOUPE"] = nil
    env["LOUPE_RECORD"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    // Read both pipes concurrently so neither can fill up and stall the child.
    let group = DispatchGroup()
    // Each is written by one reader task and read only after `group.wait()`.
    nonisolated(unsafe) var outData = Data()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      outData = out.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    if let stdin { input.fileHandleForWriting.write(stdin) }
    // Some tests keep stdin open (an editor that stays connected) until the process ends.
    if closeStdin { try? input.fileHandleForWriting.close() }
    group.wait()
    process.waitUntilExit()
    try? input.fileHandleForWriting.close()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// ``run(_:_:environment:stdin:closeStdin:currentDirectory:)`` waiting on a thread of its own,
  /// for programs that take seconds (a whole demo): a test blocked in `run` holds one of the
  /// few threads that every test running at the same time shares (two on a 2-core machine).
  static func runDetached(
    _ name: String, _ arguments: [String], environment: [String: String] = [:], currentDirectory: String? = nil
  ) async throws -> Run {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(with: Result { try run(name, arguments, environment: environment, currentDirectory: currentDirectory) })
      }.start()
    }
  }
}

/// A scratch directory removed when released.
final class TemporaryDirectory {
  let path: String
  init() {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-cli-tests-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(atPath: path) }
  func file(_ name: String) -> String { path + "/" + name }
}
