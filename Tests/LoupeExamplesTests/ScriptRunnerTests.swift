import Loupe
import Testing

@testable import LoupeExamples

/// A script of three steps a second apart, that records what was played.
@MainActor
final class CountingScenario: Scenario {
  var played: [Int] = []
  var finished = false
  func start() -> String? { nil }
  var beats: [Beat] { (1...3).map { step in Beat(after: .seconds(1)) { self.played.append(step); return nil } } }
  func finish() { finished = true }
}

@MainActor
@Suite struct ScriptRunnerTests {
  let clock = TestClock()

  /// A machine so busy that every wait lasts twice as long as asked.
  var busyTimeline: ScriptTimeline {
    let clock = self.clock
    return ScriptTimeline(clock: AnyClock(clock)) { duration in await clock.advance(by: duration * 2) }
  }

  /// Regression: a demo's story was cut by its wall-clock length on a busy machine.
  @Test func oncePlaysTheWholeStoryHoweverLateItRuns() async {
    let scenario = CountingScenario()
    await ScriptRunner.run(scenario, for: .seconds(3.5), once: true, on: busyTimeline)
    #expect(scenario.played == [1, 2, 3])
    #expect(scenario.finished)
  }

  @Test func withoutOnceTheTimeIsTheLimit() async {
    let scenario = CountingScenario()
    await ScriptRunner.run(scenario, for: .seconds(3.5), on: busyTimeline)
    #expect(scenario.played == [1, 2])  // the busy machine ran out of time before the last
    #expect(scenario.finished)
  }

  @Test func onceOnAnIdleMachineEndsAtTheGivenTime() async {
    let scenario = CountingScenario()
    await ScriptRunner.run(scenario, for: .seconds(3.5), once: true, on: .test(clock))
    #expect(scenario.played == [1, 2, 3])
    #expect(clock.now.offset == .seconds(3.5))
  }
}
