import Foundation

/// Every benchmark, in the order of the table.
enum Catalog {
  static let all: [Benchmark] = DiffBenchmarks.all + EncodingBenchmarks.all + SendBenchmarks.all + RowsSendBenchmarks.all
    + SnapshotBenchmarks.all + EmitBenchmarks.all
    + ProcessBenchmarks.all + DAPBenchmarks.all + MCPBenchmarks.all

  /// The main package's root: `LOUPE_REPO` if set, else the parent of the Benchmarks package
  /// this file was compiled from.
  static func repositoryRoot() -> URL {
    if let root = ProcessInfo.processInfo.environment["LOUPE_REPO"] { return URL(fileURLWithPath: root) }
    return URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // loupe-bench
      .deletingLastPathComponent()  // Sources
      .deletingLastPathComponent()  // Benchmarks
      .deletingLastPathComponent()
  }
}
