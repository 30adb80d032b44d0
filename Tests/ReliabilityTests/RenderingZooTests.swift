import Foundation
import LoupeCore
import Testing

extension ReliabilitySuites {
  /// The rendering zoo (`loupe-examples zoo`, see `RenderingZoo.swift`): every value a state
  /// commonly holds that reflection handles badly, rendered and diffed — directly, and in a
  /// real store recording to a trace (`LOUPE_RECORD`) — each case in a child process of its
  /// own, so one crash cannot hide the next. Before these fixes, `nserror-optional-error`,
  /// `nserror-field`, `error-nserror-user-info` and `error-bare` killed the program with
  /// SIGSEGV, and `nsarray` reported 0 changes.
  @Suite(.timeLimit(.minutes(5))) struct RenderingZooTests {
    /// What one case printed, and the trace it recorded.
    struct Outcome {
      var termination: ChildProcess.Termination
      var lines: [String]
      var stderr: String
      var trace: TraceCheck?

      func value(_ prefix: String) -> String? {
        lines.first { $0.hasPrefix(prefix + ": ") }.map { String($0.dropFirst(prefix.count + 2)) }
      }
      func values(_ prefix: String) -> [String] {
        lines.filter { $0.hasPrefix(prefix + ": ") }.map { String($0.dropFirst(prefix.count + 2)) }
      }
      var changeCount: Int? { value("changes").flatMap { Int($0) } }
    }

    static func run(_ name: String) throws -> Outcome {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-zoo-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let tracePath = directory.appendingPathComponent("zoo.loupe").path
      let end = try ChildProcess.run("loupe-examples", ["zoo", name], environment: ["LOUPE_RECORD": tracePath])
      let trace = FileManager.default.fileExists(atPath: tracePath) ? try? TraceCheck(path: tracePath) : nil
      return Outcome(
        termination: end.termination, lines: end.stdout.split(separator: "\n").map(String.init), stderr: end.stderr, trace: trace)
    }

    static let caseNames: [String] = {
      (try? ChildProcess.run("loupe-examples", ["zoo", "list"]))?.stdout.split(separator: "\n").map(String.init) ?? []
    }()

    @Test func theZooListsItsCases() {
      #expect(Self.caseNames.count >= 50, "\(Self.caseNames)")
    }

    /// Every case runs to its end in its own process, renders, diffs, and records a trace
    /// whose state changes replay: nothing crashes, whatever the value.
    @Test(arguments: caseNames) func everyCaseRendersDiffsAndRecords(_ name: String) throws {
      let outcome = try Self.run(name)
      #expect(outcome.termination == .exited(0), "\(name): \(outcome.termination)\n\(outcome.stderr)")
      #expect(outcome.lines.last == "ok", "\(name): \(outcome.lines.suffix(3))")
      #expect(outcome.value("applies") == "true", "\(name): the changes do not turn old into new: \(outcome.lines)")
      guard let trace = outcome.trace else {
        Issue.record("\(name): no trace recorded")
        return
      }
      trace.expectGapFree()
      // Two actions (to the new value and back), each recorded with its rendered value.
      let actions = trace.events.filter { $0.kind == "action.received" }
      #expect(actions.count == 2, "\(name)")
      // A change found directly is recorded by the store too: there and back again.
      let stateChanges = trace.events.filter { $0.kind == "state.changed" }
      #expect(stateChanges.count == ((outcome.changeCount ?? 0) > 0 ? 2 : 0), "\(name)")
    }

    // MARK: Golden renderings of the cases that crashed or lost changes

    @Test func anNSErrorInAnOptionalErrorRendersItsDomainAndCode() throws {
      let outcome = try Self.run("nserror-optional-error")
      #expect(outcome.termination == .exited(0), "\(outcome.stderr)")
      #expect(outcome.value("new") == #"{"isLoading":false,"error":{"domain":"Net","code":7}}"#)
      #expect(outcome.values("change").contains(#"{"path":"error","op":"insert","new":{"domain":"Net","code":7}}"#))
    }

    @Test func anNSErrorFieldRendersItsUserInfo() throws {
      let outcome = try Self.run("nserror-field")
      #expect(outcome.termination == .exited(0), "\(outcome.stderr)")
      #expect(outcome.value("new") == #"{"domain":"Net","code":2,"userInfo":{"reason":"gone"}}"#)
    }

    @Test func anNSArrayDiffsAsAnArray() throws {
      let outcome = try Self.run("nsarray")
      #expect(outcome.value("old") == "[1]")
      #expect(outcome.value("new") == "[2]")
      #expect(outcome.values("change") == [#"{"path":"[0]","op":"replace","old":1,"new":2}"#])
    }

    @Test func aCollectionMirrorRendersAndDiffsAsACollection() throws {
      let outcome = try Self.run("custom-mirror-collection")
      #expect(outcome.value("new") == #"["a","b"]"#)
      #expect(outcome.values("change") == [#"{"path":"[1]","op":"insert","new":"b"}"#])
    }

    @Test func foundationReferenceTypesRenderAsTheValuesTheyHold() throws {
      let expected: [String: String] = [
        "nsdate": #""2023-11-14T22:13:20.000Z""#,
        "nsdata": #""YWJj""#,
        "nsdictionary": #"{"a":2,"b":3}"#,
        "nsset": "[2,3]",
        "nsnumber": "2.5",
        "nsurl": #""https://b.example""#,
        "nsmutablestring": #""ab""#,
      ]
      for (name, new) in expected {
        let outcome = try Self.run(name)
        #expect(outcome.value("new") == new, "\(name): \(outcome.lines)")
      }
    }

    @Test func actorsKeyPathsAndTrappingDescriptionsShowWhatTheyAre() throws {
      #expect(try Self.run("actor").value("new") == #""<actor ZooCounter#2>""#)
      let keyPaths = try Self.run("key-path")
      #expect(keyPaths.value("old") == #""\\ZooPoint.x""#)
      #expect(keyPaths.value("new") == #""\\ZooPoint.y""#)
      #expect(try Self.run("description-traps-object").value("new") == "{}")
      #expect(try Self.run("closure").value("new") == #""<function>""#)
      #expect(try Self.run("metatype").value("new") == #""Dictionary<String, Int>""#)
    }

    /// Random compositions of the zoo's values in every container, rendered and diffed; each
    /// diff must replay exactly.
    @Test(arguments: [1, 2, 3] as [UInt64]) func randomCompositionsRenderAndDiff(_ seed: UInt64) throws {
      let end = try ChildProcess.run("loupe-examples", ["zoo", "fuzz", "\(seed)", "300"])
      #expect(end.termination == .exited(0), "\(end.stderr)")
      #expect(end.stdout.contains("fuzz: 300 compositions, 0 diffs that do not apply"), "\(end.stdout.suffix(2000))")
    }
  }
}
