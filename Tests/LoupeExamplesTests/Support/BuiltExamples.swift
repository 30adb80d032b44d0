import Foundation
import Testing

/// Runs the built `loupe-examples` (and `loupe`) executables, which `swift build` and `swift
/// test` place next to this test bundle.
enum BuiltExamples {
  /// What a run printed and how it ended.
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static let directory: String? = {
    var candidates: [String] = []
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().path)
    }
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().path)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      candidates.append(bundle.bundleURL.deletingLastPathComponent().path)
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/loupe-examples") }
  }()

  struct NotBuilt: Error, CustomStringConvertible {
    var name: String
    var description: String { "'\(name)' is not in the build products; run 'swift build' first." }
  }

  static func executable(_ name: String) throws -> String {
    guard let directory, FileManager.default.isExecutableFile(atPath: directory + "/" + name) else {
      throw NotBuilt(name: name)
    }
    return directory + "/" + name
  }

  /// Runs `name` with `arguments` to its end. Output goes through files, so nothing can stall
  /// the child; the environment is this process's without any `LOUPE*` variable, plus
  /// `environment`.
  static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    let scratch = ScratchDirectory()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try executable(name))
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LOUPE") }
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    _ = FileManager.default.createFile(atPath: scratch.file("out"), contents: nil)
    _ = FileManager.default.createFile(atPath: scratch.file("err"), contents: nil)
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.file("out")))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.file("err")))
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    return Run(
      status: process.terminationStatus,
      stdout: try String(contentsOfFile: scratch.file("out"), encoding: .utf8),
      stderr: try String(contentsOfFile: scratch.file("err"), encoding: .utf8))
  }
}

extension BuiltExamples {
  /// ``run(_:_:environment:)`` waiting on a thread of its own: a test blocked in `run` would
  /// hold one of the few threads every test running at the same time shares.
  static func runDetached(_ name: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try run(name, arguments, environment: environment) }) }.start()
    }
  }
}

/// A scratch directory, removed when released.
final class ScratchDirectory {
  let path: String

  init() {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-examples-tests-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String) -> String { path + "/" + name }
}
