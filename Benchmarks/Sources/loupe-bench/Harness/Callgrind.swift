import Foundation

/// Instruction counts from `valgrind --tool=callgrind`: repeatable on a noisy machine, where
/// timings are not. Each side of a paired benchmark runs by itself (`--run-side`) for N and
/// 2N operations; the difference over N is the cost of one operation, without the setup.
enum Callgrind {
  static var isAvailable: Bool {
    ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/valgrind")
    } ?? false
  }

  static func instructionsPerOperation(
    of id: String, loupeNanoseconds: Double, otherNanoseconds: Double, context: BenchContext
  ) throws -> (loupe: Double, other: Double) {
    (
      try perOperation(id: id, side: "loupe", iterations: iterations(for: loupeNanoseconds)),
      try perOperation(id: id, side: "other", iterations: iterations(for: otherNanoseconds))
    )
  }

  /// About 20 ms of native time per run (callgrind runs some 50 times slower).
  private static func iterations(for nanoseconds: Double) -> Int {
    max(1, min(50_000, Int(20e6 / max(nanoseconds, 1))))
  }

  private static func perOperation(id: String, side: String, iterations: Int) throws -> Double {
    let first = try total(id: id, side: side, iterations: iterations)
    let second = try total(id: id, side: side, iterations: 2 * iterations)
    return Double(second - first) / Double(iterations)
  }

  private static func total(id: String, side: String, iterations: Int) throws -> Int {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-bench-callgrind-\(getpid()).out")
    defer { try? FileManager.default.removeItem(at: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "valgrind", "--tool=callgrind", "--callgrind-out-file=\(output.path)", CommandLine.arguments[0], "--run-side", id, side,
      String(iterations),
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let text = try? String(contentsOf: output, encoding: .utf8) else {
      throw BenchmarkError("callgrind failed on \(id) \(side) (status \(process.terminationStatus))")
    }
    for line in text.split(separator: "\n") where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
      if let count = Int(line.split(separator: " ").last ?? "") { return count }
    }
    throw BenchmarkError("no instruction total in callgrind's output for \(id) \(side)")
  }
}
