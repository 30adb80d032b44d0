import Foundation
import Testing

/// `loupe demo` runs a scenario attached, records it, and suggests what to try next.
@Suite struct DemoTests {
  @Test func demoRunsAttachedRecordsAndSuggests() throws {
    // A stand-in for loupe-examples that plays the probe whatever scenario it is asked for.
    let dir = TemporaryDirectory()
    let script = dir.file("examples.sh")
    let examples = try BuiltProducts.executable("loupe-examples")
    try "#!/bin/sh\nexec '\(examples)' probe --burst 2 --hold --seconds 0.2\n".write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o755)
    let run = try BuiltProducts.run("loupe", ["demo"], environment: ["LOUPE_EXAMPLES": script, "TMPDIR": dir.path])
    #expect(run.status == 0)
    let trace = URL(fileURLWithPath: dir.path).appendingPathComponent("loupe-demo-pages.loupe").path
    let output = EndToEndLiveTests.normalized(run.stdout).replacingOccurrences(of: trace, with: "TRACE")
    Fixtures.expectGolden(output, "demo.txt")
    #expect(run.stderr.contains("note: recorded 9 events to \(trace)\n"))
    let stats = try BuiltProducts.run("loupe", ["stats", trace])
    #expect(stats.status == 0)
  }

  @Test func demoUsageAndMissingExamples() async throws {
    let unknown = await loupe("demo", "chess")
    #expect(unknown.status == 2)
    #expect(unknown.stderr.hasPrefix("Error: Unknown scenario 'chess': choose pages, game or todos\n"))
    let seconds = await loupe("demo", "--seconds", "forever")
    #expect(seconds.stderr.hasPrefix("Error: Invalid value 'forever' for '--seconds': expected a number of seconds (up to 600)\n"))
    let missing = try BuiltProducts.run("loupe", ["demo"], environment: ["LOUPE_EXAMPLES": "/nonexistent/loupe-examples"])
    #expect(missing.status == 3)
    #expect(missing.stderr.hasPrefix("Error: Cannot launch '/nonexistent/loupe-examples'"))
  }
}

/// The real demo, once `loupe-examples` has its scenarios.
@Suite struct RealDemoTests {
  static let examplesHavePages: Bool = {
    guard let run = try? BuiltProducts.run("loupe-examples", ["--help"]) else { return false }
    return run.stdout.contains("pages")
  }()

  @Test(.enabled(if: examplesHavePages, "loupe-examples has no pages scenario in this build"))
  func thePagesDemoShowsTheSeedBugAndDoctorExplainsIt() throws {
    let dir = TemporaryDirectory()
    let run = try BuiltProducts.run("loupe", ["demo"], environment: ["TMPDIR": dir.path])
    #expect(run.status == 0)
    #expect(run.stdout.contains("— another store"))
    #expect(run.stdout.contains("Try next:"))
    let trace = URL(fileURLWithPath: dir.path).appendingPathComponent("loupe-demo-pages.loupe").path
    let doctor = try BuiltProducts.run("loupe", ["doctor", trace, "--json"])
    #expect(doctor.status == 1)
    #expect(doctor.stdout.contains(#""code":"effect-cancelled-by-another-store""#))
  }
}
