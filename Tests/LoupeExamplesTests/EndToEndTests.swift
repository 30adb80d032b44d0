import Foundation
import Loupe
import Testing
@testable import LoupeSession

/// Runs the built `loupe-examples` for each scenario, recording with `LOUPE_RECORD`, and
/// reads the trace back with core's `TraceReader`: exit 0, a whole trace, and the story.
///
/// Runs are short: `--seconds 1` of wall time with `--speed`, so the script gets through its
/// story (a full loop) in about a second.
@Suite struct EndToEndTests {
  func record(_ arguments: [String]) async throws -> TraceFile {
    let scratch = ScratchDirectory()
    let path = scratch.file("run.loupe")
    // `--once`: the whole story, however busy the machine (the time given is then a minimum).
    let run = try await BuiltExamples.runDetached("loupe-examples", arguments + ["--quiet", "--once"], environment: ["LOUPE_RECORD": path])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    #expect(run.stdout == "")
    #expect(run.stderr == "")
    let trace = try TraceFile(path: path)
    #expect(trace.header.program == "loupe-examples")
    #expect(trace.events.first?.kind == "session.started")
    #expect(trace.warnings.isEmpty)
    // Every scenario ends clean: its stores ended, nothing left running.
    #expect(trace.effectsLeftRunning.isEmpty)
    #expect(Set(trace.created.map(\.store)) == Set(trace.destroyed.map(\.store)))
    return trace
  }

  @Test func pagesKeepEachPagesTimerByDefault() async throws {
    let trace = try await record(["pages", "--seconds", "1", "--speed", "4"])
    let pages = ["PageFeature#1", "PageFeature#2", "PageFeature#3", "PageFeature#4"]
    #expect(trace.created.map(\.store) == pages)
    // Every page ticked…
    let ticked = Set(trace.stateChanges.filter { $0.changes.map(\.path) == ["count"] }.map(\.store))
    #expect(ticked == Set(pages))
    // …and every cancellation came from the page's own store.
    #expect(!trace.cancelled.isEmpty)
    for cancelled in trace.cancelled {
      #expect(cancelled.by == nil || cancelled.by?.store == cancelled.store, "\(cancelled)")
    }
  }

  @Test func pagesWithSharedCancellationCancelAcrossStores() async throws {
    let trace = try await record(["pages", "--shared-cancellation", "--seconds", "1", "--speed", "4"])
    let crossStore = trace.cancelled.filter { $0.by.map { $0.store != trace.storeOf($0.cause) } ?? false }
    #expect(crossStore.isEmpty, "`by.cause` names an action of `by.store`")
    let foreign = trace.cancelled.filter { $0.by != nil && $0.by?.store != $0.store }
    #expect(!foreign.isEmpty)
    #expect(foreign.allSatisfy { $0.cancelID == "PageFeature.CancelID.timer" })
    // The first one is the seed's: the page shown first stops the preloaded page's timer.
    #expect(foreign.first.map { "\($0.store) \($0.reason.rawValue) by \($0.by!.store)" }
      == "PageFeature#2 cancelInFlight by PageFeature#1")
  }

  @Test func gameShowsResultsAsNewIdentitiesAndNamesDeletedRows() async throws {
    let trace = try await record(["game", "--seconds", "1.5", "--speed", "8"])
    let list = "GameFeature#1/resultList"
    let presented = trace.identities.filter { $0.store == list && $0.reason == .presented }
    #expect(presented.count >= 2)
    #expect(Set(presented.map(\.identity)).count == presented.count, "a new identity each time")
    #expect(presented.dropFirst().first?.previous == presented.first?.identity)
    #expect(trace.identities.contains { $0.store == list && $0.reason == .dismissed })
    // Rows are deleted by id on the page, and saved back by id on the game.
    let removedOnPage = trace.stateChanges.filter { $0.store == list }
      .map { $0.changes.filter { $0.op == .remove }.map(\.path) }.filter { !$0.isEmpty }
    #expect(Array(removedOnPage.prefix(2)) == [["results[id: 1]"], ["results[id: 2]", "results[id: 3]"]])
    let removedOnGame = trace.stateChanges.filter { $0.store == "GameFeature#1" }
      .flatMap { $0.changes.filter { $0.op == .remove && $0.path.hasPrefix("results.") }.map(\.path) }
    #expect(removedOnGame.first == "results.results[id: 1]")
  }

  @Test func todosFindTheWastefulDerivedValue() async throws {
    let trace = try await record(["todos", "--seconds", "1", "--speed", "8"])
    let workload = trace.derived.filter { $0.derived == "workload" }
    let openCount = trace.derived.filter { $0.derived == "openCount" }
    // workload runs after every action, mostly for nothing; openCount only when a to-do changed.
    #expect(workload.filter { !$0.outputChanged }.count >= 4)
    #expect(workload.count > 2 * openCount.count)
    // Typing drops the search in flight.
    let dropped = trace.cancelled.filter { $0.cancelID == "TodosFeature.CancelID.search" && $0.reason == .cancelInFlight }
    #expect(dropped.count >= 2)
    #expect(dropped.allSatisfy { $0.by?.store == "TodosFeature#1" })
    // One tick in thousands of to-dos is one change.
    #expect(trace.stateChanges.contains { $0.changes.map(\.path) == ["database.todos[id: 9].isDone"] })
  }

  /// The README's walkthrough: `loupe record` (the program served over stdio), then `loupe
  /// doctor` — silent on the default run, catching the bug with `--shared-cancellation`.
  @Test(arguments: [false, true])
  func loupeRecordAndDoctor(sharedCancellation: Bool) async throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("pages.loupe")
    let examples = try BuiltExamples.executable("loupe-examples")
    let flags = sharedCancellation ? ["--shared-cancellation"] : []
    let record = try await BuiltExamples.runDetached(
      "loupe", ["record", path, "--", examples, "pages", "--seconds", "1", "--speed", "4", "--once"] + flags)
    #expect(record.status == 0, "stderr: \(record.stderr)")
    #expect(record.stdout == "", "under LOUPE=stdio the scenario does not narrate")
    let trace = try TraceFile(path: path)
    #expect(trace.created.count == 4)
    let doctor = try await BuiltExamples.runDetached("loupe", ["doctor", path])
    if sharedCancellation {
      #expect(doctor.status == 1)
      #expect(doctor.stdout.contains("1. Effect cancelled by another store\n"))
      #expect(doctor.stdout.contains("Effect 1 of PageFeature#2"))
    } else {
      #expect(doctor.status == 0)
      #expect(doctor.stdout.hasPrefix("No problems found in \(path)"))
    }
  }
}

/// `loupe doctor` on each scenario reports exactly what the README's examples table says the
/// scenario shows on purpose, and nothing else: no false alarms on healthy features.
@Suite struct DoctorOnScenariosTests {
  @Test(arguments: [
    (["pages"], [String](), 0),
    (["pages", "--shared-cancellation"], ["effect-cancelled-by-another-store"], 1),
    // The results page is presented again each round: a new identity each time, not churn.
    (["game"], [], 0),
    // workload is not memoized (a problem); openCount is, and its output staying the same
    // when a to-do is renamed is normal (no finding).
    (["todos"], ["derived-unchanged-output"], 1),
  ] as [([String], [String], Int32)])
  func findingsAreTheOnesTheScenarioShows(arguments: [String], codes: [String], status: Int32) async throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("run.loupe")
    let run = try await BuiltExamples.runDetached(
      "loupe-examples", arguments + ["--quiet", "--once", "--seconds", "1.5", "--speed", "8"], environment: ["LOUPE_RECORD": path])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let doctor = try await BuiltExamples.runDetached("loupe", ["doctor", path, "--json"])
    #expect(doctor.status == status, "\(doctor.stdout)")
    let object = try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any]
    let found = ((object?["problems"] as? [[String: Any]] ?? []) + (object?["notes"] as? [[String: Any]] ?? []))
      .compactMap { $0["code"] as? String }
    #expect(found == codes, "\(doctor.stdout)")
  }
}

extension TraceFile {
  /// The store of the action event with `seq`.
  func storeOf(_ seq: Int) -> String? {
    events.first { $0.seq == seq }?.store
  }
}
