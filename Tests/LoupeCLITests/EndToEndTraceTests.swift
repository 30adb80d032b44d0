import Foundation
import Testing

/// The built `loupe` binary on the fixture traces: exit statuses, streams and exact output.
@Suite struct EndToEndTraceTests {
  let pages = Fixtures.path("pages.loupe")

  @Test func helpAndVersion() throws {
    let help = try BuiltProducts.run("loupe", ["--help"])
    #expect(help.status == 0)
    Fixtures.expectGolden(help.stdout, "help.txt")
    let version = try BuiltProducts.run("loupe", ["--version"])
    #expect(version.stdout.hasPrefix("loupe "))
  }

  @Test func showStatsDoctorExport() throws {
    let show = try BuiltProducts.run("loupe", ["show", pages])
    #expect(show.status == 0)
    Fixtures.expectGolden(show.stdout, "pages.show.txt")  // piped: no colour
    let stats = try BuiltProducts.run("loupe", ["stats", pages])
    Fixtures.expectGolden(stats.stdout, "pages.stats.txt")
    let doctor = try BuiltProducts.run("loupe", ["doctor", pages])
    #expect(doctor.status == 1)
    Fixtures.expectGolden(doctor.stdout, "pages.doctor.txt")
    let dir = TemporaryDirectory()
    let export = try BuiltProducts.run("loupe", ["export", pages, "--chrome-trace", dir.file("out.json")])
    #expect(export.status == 0)
    Fixtures.expectGolden(try String(contentsOfFile: dir.file("out.json"), encoding: .utf8), "pages.chrome.json")
  }

  @Test func readsStandardInput() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: pages))
    let run = try BuiltProducts.run("loupe", ["show", "-", "--format", "changes"], stdin: data)
    #expect(run.status == 0)
    Fixtures.expectGolden(run.stdout, "pages.changes.txt")
  }

  @Test func usageErrorsExitWith2() throws {
    let run = try BuiltProducts.run("loupe", ["show"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == "Error: Missing expected argument 'FILE'\nUsage: loupe show FILE [FILTER] [--format text|json|changes]\nSee 'loupe show --help'.\n")
  }

  @Test func foreignAndTruncatedFiles() throws {
    let foreign = try BuiltProducts.run("loupe", ["stats", Fixtures.path("foreign.json")])
    #expect(foreign.status == 3)
    #expect(foreign.stderr == "Error: '\(Fixtures.path("foreign.json"))' is not a Loupe trace: its first line is JSON without a \"format\" member.\n")
    let truncated = try BuiltProducts.run("loupe", ["stats", "--json", Fixtures.path("truncated.loupe")])
    #expect(truncated.status == 0)
    #expect(truncated.stdout.contains(#""events":9"#))
    #expect(truncated.stderr.contains("the trace ends inside line 11"))
  }

  @Test func anEarlyClosedPipeEndsQuietly() throws {
    // `loupe show big.loupe | head -n 1`: the reader goes away; loupe stops without an error.
    let dir = TemporaryDirectory()
    var text = #"{"format":"loupe-trace","version":1,"program":"Big","pid":1,"startedAt":"2026-01-01T00:00:00.000Z"}"# + "\n"
    for seq in 1...50_000 { text += #"{"seq":\#(seq),"time":\#(seq).0,"kind":"mark","label":"tick"}"# + "\n" }
    try text.write(toFile: dir.file("big.loupe"), atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try BuiltProducts.executable("loupe"))
    process.arguments = ["show", dir.file("big.loupe")]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let first = out.fileHandleForReading.readData(ofLength: 20)
    try out.fileHandleForReading.close()
    let errors = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(String(decoding: first, as: UTF8.self) == "     1.000ms      #1")
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: errors, as: UTF8.self) == "")
  }
}
