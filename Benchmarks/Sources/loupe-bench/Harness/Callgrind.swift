import Foundation

/// Instruction counts from `valgrind --tool=callgrind`: repeatable on a noisy machine, where
/// timings are not. Each side of a paired benchmark runs by itself (`--run-side`) for N and
/// 2N operations; the difference over N is the cost of one operation, without the setup.
/// Threads are counted apart (`--separate-threads=yes`): every thread of the process, and the
/// main thread alone, which is the program's own thread in these benchmarks (a trace writer,
/// a client's queue or a reading client run on threads of their own).
enum Callgrind {
  static var isAvailable: Bool {
    ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/valgrind")
    } ?? false
  }

  static func instructionsPerOperation(
    of id: String, loupeNanoseconds: Double, otherNanoseconds: Double, context: BenchContext
  ) throws -> InstructionCounts {
    let loupe = try perOperation(id: id, side: "loupe", iterations: iterations(for: loupeNanoseconds))
    let other = try perOperation(id: id, side: "other", iterations: iterations(for: otherNanoseconds))
    return InstructionCounts(loupe: loupe.all, other: other.all, loupeMainThread: loupe.main, otherMainThread: other.main)
  }

  /// About 20 ms of native time per run (callgrind runs some 50 times slower).
  private static func iterations(for nanoseconds: Double) -> Int {
    max(1, min(50_000, Int(20e6 / max(nanoseconds, 1))))
  }

  private static func perOperation(id: String, side: String, iterations: Int) throws -> (all: Double, main: Double) {
    let first = try totals(id: id, side: side, iterations: iterations)
    let second = try totals(id: id, side: side, iterations: 2 * iterations)
    return (
      Double(second.all - first.all) / Double(iterations), Double(second.main - first.main) / Double(iterations)
    )
  }

  /// Instructions of one run: every thread's, and the main thread's.
  private static func totals(id: String, side: String, iterations: Int) throws -> (all: Int, main: Int) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-bench-callgrind-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // One hash seed for every run: with a random one (Swift's default), the dictionaries and
    // sets behind a side lay out differently from run to run, which moved a side's count by
    // up to 10% (a plain-array diff of 64 changes: 48.6M to 55.4M), more than the differences
    // some rows judge (k + 1 changes against k).
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    let result = try ChildProcess.run(
      [
        "valgrind", "--tool=callgrind", "--separate-threads=yes", "--callgrind-out-file=\(directory.path)/run.out",
        CommandLine.arguments[0], "--run-side", id, side, String(iterations),
      ], environment: environment, output: .discarded, quiet: true)
    guard result.status == 0 else {
      throw BenchmarkError("callgrind failed on \(id) \(side) (status \(result.status))")
    }
    // One file per thread: run.out-01 is the main thread's, run.out-02… the others'.
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("run.out-") }.sorted()
    guard files.first == "run.out-01" else { throw BenchmarkError("callgrind wrote no main-thread file for \(id) \(side)") }
    var all = 0
    var main = 0
    for file in files {
      let count = try total(in: directory.appendingPathComponent(file), id: id, side: side)
      all += count
      if file == "run.out-01" { main = count }
    }
    return (all, main)
  }

  private static func total(in file: URL, id: String, side: String) throws -> Int {
    guard let text = try? String(contentsOf: file, encoding: .utf8) else {
      throw BenchmarkError("callgrind's output for \(id) \(side) is unreadable")
    }
    for line in text.split(separator: "\n") where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
      if let count = Int(line.split(separator: " ").last ?? "") { return count }
    }
    throw BenchmarkError("no instruction total in callgrind's output for \(id) \(side)")
  }
}

/// Instructions per operation of both sides: every thread of the process, and its main
/// thread alone (the program's own thread: what a `send` or an `emit` costs the caller).
struct InstructionCounts {
  var loupe: Double
  var other: Double
  var loupeMainThread: Double
  var otherMainThread: Double
}
