import Foundation
import Testing
@testable import LoupeCLI

/// `show`, `stats`, `doctor` and `export` on the committed fixture traces, run in process.
@Suite struct TraceCommandTests {
  let pages = Fixtures.path("pages.loupe")
  let counter = Fixtures.path("counter.loupe")

  // MARK: show

  @Test func showTimeline() async {
    let run = await loupe("show", pages)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    Fixtures.expectGolden(run.stdout, "pages.show.txt")
  }

  @Test func showTimelineInColour() async {
    let run = await loupe(["show", counter], color: true)
    Fixtures.expectGolden(run.stdout, "counter.show.color.txt")
    #expect(run.stdout.contains("\u{1B}[36maction.received   \u{1B}[0m"))
  }

  @Test func showChanges() async {
    let run = await loupe("show", pages, "--format", "changes")
    #expect(run.status == 0)
    Fixtures.expectGolden(run.stdout, "pages.changes.txt")
  }

  @Test func showJSONPassesTraceLinesThroughUnchanged() async throws {
    let lines = try String(contentsOfFile: pages, encoding: .utf8).split(separator: "\n").dropFirst()
    let all = await loupe("show", pages, "--format", "json")
    #expect(all.stdout == lines.joined(separator: "\n") + "\n")
    let effects = await loupe("show", pages, "--format", "json", "--kind", "effect.*")
    // `dropped` passes every filter: a filter never hides that events were lost.
    let expected = lines.filter { $0.contains(#""kind":"effect."#) || $0.contains(#""kind":"dropped""#) }
    #expect(effects.stdout == expected.joined(separator: "\n") + "\n")
  }

  @Test func showFilters() async {
    let run = await loupe("show", pages, "--store", "*pages[id: 1]", "--kind", "effect.*,action.*")
    Fixtures.expectGolden(run.stdout, "pages.show.filtered.txt")
    // Filtered views still know effect durations from events they do not show.
    let cancelled = await loupe("show", pages, "--kind", "effect.cancelled")
    #expect(cancelled.stdout.contains("effect 1 cancelled after 3.30s: cancelInFlight by AppFeature#1/pages[id: 2]"))
    let paths = await loupe("show", pages, "--path", "settings.*", "--format", "changes")
    #expect(paths.stdout == "AppFeature#1: _settings changed.\n")
    let actions = await loupe("show", pages, "--action", "*Tapped", "--format", "json")
    #expect(actions.stdout.split(separator: "\n").count == 4)  // 3 actions and the dropped event
  }

  @Test func showWarnsAboutSuspiciousKinds() async {
    let run = await loupe("show", counter, "--kind", "effect")
    #expect(run.stdout == "")
    #expect(run.stderr == "warning: --kind 'effect' matches no known event kind; did you mean 'effect.*'?\n")
  }

  // MARK: stats

  @Test func statsTables() async {
    let run = await loupe("stats", pages)
    #expect(run.status == 0)
    Fixtures.expectGolden(run.stdout, "pages.stats.txt")
    Fixtures.expectGolden(await loupe("stats", counter).stdout, "counter.stats.txt")
  }

  @Test func statsJSON() async throws {
    let run = await loupe("stats", pages, "--json")
    #expect(run.status == 0)
    Fixtures.expectGolden(run.stdout, "pages.stats.json")
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    #expect(Set(object.keys) == ["trace", "actions", "effects", "derived", "identityChanges", "warnings"])
  }

  // MARK: doctor

  @Test func doctorFindsEveryPitfallInThePagesTrace() async {
    let run = await loupe("doctor", pages)
    #expect(run.status == 1)
    Fixtures.expectGolden(run.stdout, "pages.doctor.txt")
  }

  @Test func doctorJSON() async throws {
    let run = await loupe("doctor", pages, "--json")
    #expect(run.status == 1)
    Fixtures.expectGolden(run.stdout, "pages.doctor.json")
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
    let codes = (object["problems"] as! [[String: Any]]).map { $0["code"] as! String }
    #expect(
      codes == [
        "effect-cancelled-by-another-store", "effect-never-ended", "derived-unchanged-output",
        "send-to-ended-store", "dropped-events",
      ])
    // A detail sheet presented again after each dismissal is its normal lifetime, not churn.
    #expect(!run.stdout.contains("identity-churn"))
  }

  @Test func aPathGlobMatchesChildChangesFromTheRootAndWarnsWhenItMatchesNothing() async {
    // The pages are forEach children: they report `count`, found as `pages[id: 1].count`.
    let run = await loupe("show", pages, "--path", "pages*.count", "--format", "changes")
    #expect(run.status == 0)
    #expect(run.stdout == String(repeating: "PageFeature#1: _count changed.\n", count: 3) + "PageFeature#2: _count changed.\n")
    #expect(run.stderr == "")
    let json = await loupe("show", pages, "--path", "pages*.count,pages[id: 9]*", "--format", "json")
    #expect(json.stdout.split(separator: "\n").map { $0.prefix(9) } == [#"{"seq":12"#, #"{"seq":15"#, #"{"seq":18"#, #"{"seq":62"#, #"{"seq":64"#])
    #expect(
      json.stderr
        == "warning: --path 'pages[id: 9]*' matched no change (paths are matched from the store that changed, 'count', and from its root store, 'pages[id: 1].count'; see them with --kind state.changed)\n"
    )
  }

  @Test func doctorTellsChurnFromPresentationAndNotesFromProblems() async throws {
    let trace = Fixtures.path("doctor.loupe")
    let run = await loupe("doctor", trace)
    #expect(run.status == 1)
    Fixtures.expectGolden(run.stdout, "doctor.doctor.txt")
    let json = await loupe("doctor", trace, "--json")
    #expect(json.status == 1)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
    func codes(_ key: String) -> [String] { (object[key] as! [[String: Any]]).map { "\($0["code"]!) \($0["severity"]!)" } }
    #expect(codes("problems") == ["identity-churn problem"])
    #expect(codes("notes") == ["derived-wide-input note"])
  }

  @Test func doctorIgnoresCodesAndExitsZeroOnNotesAlone() async throws {
    let trace = Fixtures.path("doctor.loupe")
    let run = await loupe("doctor", trace, "--ignore", "identity-churn")
    #expect(run.status == 0)
    #expect(run.stdout.hasPrefix("Found no problems and 1 note in doctor.loupe (Settings, 45 events) (1 finding ignored):\n".replacingOccurrences(of: "doctor.loupe", with: trace)))
    #expect(run.stdout.contains("1. Memoized derived value whose input is wider than its output (note)\n"))
    let both = await loupe("doctor", trace, "--ignore", "identity-churn,derived-wide-input", "--json")
    #expect(both.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as! [String: Any]
    #expect((object["problems"] as! [Any]).isEmpty)
    #expect((object["notes"] as! [Any]).isEmpty)
    #expect(object["ignored"] as? Int == 2)
    let clean = await loupe("doctor", trace, "--ignore", "identity-churn", "--ignore", "derived-wide-input")
    #expect(clean.stdout == "No problems found in \(trace) (Settings, 45 events) (2 findings ignored).\n")
  }

  @Test func doctorRejectsAnUnknownCode() async {
    let run = await loupe("doctor", Fixtures.path("doctor.loupe"), "--ignore", "identity-chrun")
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("Error: --ignore: unknown finding code 'identity-chrun' (codes: effect-cancelled-by-another-store, "))
    #expect(run.stdout.isEmpty)
  }

  @Test func doctorOnACleanTrace() async {
    let run = await loupe("doctor", counter)
    #expect(run.status == 0)
    #expect(run.stdout == "No problems found in \(counter) (Counter, 10 events).\n")
    let json = await loupe("doctor", counter, "--json")
    #expect(json.status == 0)
    #expect(json.stdout.contains(#""problems":[]"#))
  }

  // MARK: export

  @Test func exportChromeTrace() async throws {
    let dir = TemporaryDirectory()
    let out = dir.file("pages.json")
    let run = await loupe("export", pages, "--chrome-trace", out)
    #expect(run.status == 0)
    #expect(run.stdout == "")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    Fixtures.expectGolden(text, "pages.chrome.json")
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    let events = object["traceEvents"] as! [[String: Any]]
    // Every async begin has its end, with the same name, category and id.
    let begins = events.filter { $0["ph"] as? String == "b" }
    let ends = events.filter { $0["ph"] as? String == "e" }
    #expect(begins.count == 5)
    for begin in begins {
      #expect(ends.contains { $0["id"] as? Int == begin["id"] as? Int && $0["name"] as? String == begin["name"] as? String })
    }
    // Stores are named tracks.
    let tracks = events.filter { $0["name"] as? String == "thread_name" }.map { ($0["args"] as! [String: Any])["name"] as! String }
    #expect(tracks == ["session", "AppFeature#1", "AppFeature#1/pages[id: 1]", "AppFeature#1/pages[id: 2]", "AppFeature#1/detail"])
    // Actions with a measured reducer time are slices.
    let slices = events.filter { $0["ph"] as? String == "X" }
    #expect(slices.count == 14)
    #expect(slices.allSatisfy { $0["cat"] as? String == "action" && ($0["dur"] as? Double ?? -1) >= 0 })
  }

  @Test func exportToStandardOutput() async throws {
    let run = await loupe("export", counter, "--chrome-trace", "-")
    #expect(run.status == 0)
    _ = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
  }

  @Test func exportToAnUnwritablePlace() async {
    let run = await loupe("export", counter, "--chrome-trace", "/nonexistent-dir/x.json")
    #expect(run.status == 3)
    #expect(run.stderr == "Error: Cannot open '/nonexistent-dir/x.json' for writing: No such file or directory.\n")
  }

  // MARK: damaged and foreign files

  @Test func truncatedTracesKeepTheirCompleteEvents() async {
    let path = Fixtures.path("truncated.loupe")
    let run = await loupe("show", path, "--format", "changes")
    #expect(run.status == 0)
    #expect(run.stdout == "CounterFeature#1: _count changed.\nCounterFeature#1: _isLoading changed.\nCounterFeature#1: _isLoading, _fact changed.\n")
    #expect(
      run.stderr
        == "warning: \(path): the trace ends inside line 11 (79 bytes after the last complete event, ignored); the recording was cut short\n")
    let doctor = await loupe("doctor", path)
    #expect(doctor.status == 1)  // the fact effect never finished in what was recorded
    #expect(doctor.stdout.contains("effect 1 of CounterFeature#1 (cancel id \"fact\"), started at #7"))
  }

  @Test func hugeTimesAreShownNotTrappedOn() async throws {
    let directory = TemporaryDirectory()
    let path = directory.file("huge.loupe")
    try Data("""
      {"format":"loupe-trace","version":1,"program":"x","pid":1,"startedAt":"2026-11-22T09:00:00.000Z"}
      {"seq":1,"time":-1e300,"kind":"effect.started","store":"A#1","effect":1,"cause":1}
      {"seq":2,"time":1e300,"kind":"effect.finished","store":"A#1","effect":1,"outcome":"completed"}

      """.utf8).write(to: URL(fileURLWithPath: path))
    let run = await loupe("show", path)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout
        == "   -1e+300ms      #1  effect.started      A#1  effect 1 (from #1)\n"
        + "    1e+300ms      #2  effect.finished     A#1  effect 1 completed after 2e+297s\n")
  }

  @Test func malformedLinesAreSkippedWithAWarning() async {
    let path = Fixtures.path("damaged.loupe")
    let run = await loupe("show", path, "--format", "json")
    #expect(run.status == 0)
    #expect(run.stdout.split(separator: "\n").count == 9)
    #expect(run.stderr == "warning: \(path): line 4: Invalid JSON: Unterminated string at byte 20; skipped\n")
  }

  @Test(arguments: [
    ("foreign.json", "is not a Loupe trace: its first line is JSON without a \"format\" member."),
    ("newer.loupe", "is a version 2 Loupe trace, but this loupe reads version 1 only. Update loupe to read it."),
    ("make-fixtures.py", "is not a Loupe trace: its first line is not JSON (Unexpected character '#' at byte 1)."),
  ])
  func foreignFilesFailWithStatus3(name: String, message: String) async {
    let path = Fixtures.path(name)
    for command in ["show", "stats", "doctor"] {
      let run = await loupe(command, path)
      #expect(run.status == 3)
      #expect(run.stdout == "")
      #expect(run.stderr == "Error: '\(path)' \(message)\n")
    }
  }

  @Test func missingFile() async {
    let run = await loupe("stats", "/nonexistent/bug.loupe")
    #expect(run.status == 3)
    #expect(run.stderr == "Error: Cannot open '/nonexistent/bug.loupe': No such file or directory.\n")
  }
}
