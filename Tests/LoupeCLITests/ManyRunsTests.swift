import Foundation
import Testing
import LoupeSession

/// `loupe stats` and `loupe doctor` over several traces and directories of them (issue 31).
@Suite struct ManyRunsTests {
  /// The LoupeTesting fixtures (five runs, one with seed 000's cancellations) copied into a
  /// directory of runs, with a subdirectory, as a CI fleet's artifacts would be.
  static func runs() throws -> (directory: TemporaryDirectory, root: String) {
    let directory = TemporaryDirectory()
    let root = directory.file("runs")
    let source = Fixtures.path("../../LoupeTestingTests/Fixtures")
    try FileManager.default.createDirectory(atPath: root + "/more", withIntermediateDirectories: true)
    // The five runs (not the golden test's old-format fixture, which is not a run).
    for name in try FileManager.default.contentsOfDirectory(atPath: source)
    where name.hasSuffix(".loupe") && !name.hasSuffix("-before-shapes.loupe") {
      let target = name.hasPrefix("timer") ? root + "/more/" + name : root + "/" + name
      try FileManager.default.copyItem(atPath: source + "/" + name, toPath: target)
    }
    try "not a trace".write(toFile: root + "/notes.txt", atomically: true, encoding: .utf8)
    return (directory, root)
  }

  @Test func doctorSaysInHowManyRunsEachFindingAppeared() async throws {
    let (directory, root) = try Self.runs()
    // Run where the runs are, so paths (and the lines they wrap) are the same on every machine.
    let run = try BuiltProducts.run("loupe", ["doctor", "runs"], currentDirectory: directory.path)
    #expect(run.status == 1)
    Fixtures.expectGolden(run.stdout, "runs.doctor.txt")
    let json = await loupe("doctor", root, Fixtures.path("doctor.loupe"), "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let runs = try #require(object["runs"] as? [[String: Any]])
    #expect(runs.count == 6)
    let problems = try #require(object["problems"] as? [[String: Any]])
    let cancelled = try #require(problems.first { $0["code"] as? String == "effect-cancelled-by-another-store" })
    #expect(cancelled["runCount"] as? Int == 1)
    #expect((cancelled["runs"] as? [String])?.map { URL(fileURLWithPath: $0).lastPathComponent } == ["pages-shared-cancellation.loupe"])
  }

  @Test func statsTotalsOverAllRuns() async throws {
    let run = await loupe("stats", Fixtures.path("counter.loupe"), Fixtures.path("pages.loupe"))
    #expect(run.status == 0)
    Fixtures.expectGolden(run.stdout, "runs.stats.txt")
    let counter = await loupe("stats", Fixtures.path("counter.loupe"), "--json")
    let pages = await loupe("stats", Fixtures.path("pages.loupe"), "--json")
    let both = await loupe("stats", Fixtures.path("counter.loupe"), Fixtures.path("pages.loupe"), "--json")
    func events(_ run: Run) throws -> Int {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
      return try #require((object["trace"] as? [String: Any])?["events"] as? Int)
    }
    #expect(try events(both) == (try events(counter)) + (try events(pages)))
  }

  @Test func aDirectoryWithoutTraces() async {
    let directory = TemporaryDirectory()
    let run = await loupe("stats", directory.file(""))
    #expect(run.status == 3)
    #expect(run.stderr.hasPrefix("Error: No trace files (*.loupe) in "))
  }
}
