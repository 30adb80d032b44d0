import LoupeCore
import Testing
@testable import LoupeCLI
@testable import LoupeSession
import LoupeSession

@Suite struct ReducerTimingTests {
  @Test func firstCausedEventEndsTheMeasurement() {
    var timing = ReducerTiming<String>()
    #expect(timing.received(seq: 1, time: 10, origin: .send, info: "A").isEmpty)
    #expect(timing.caused(by: 1, at: 10.5).map(\.info) == ["A"])
    #expect(timing.caused(by: 1, at: 11).isEmpty)  // only the first counts
  }

  @Test func aParentEndsWithItsRoutedChild() {
    var timing = ReducerTiming<String>()
    _ = timing.received(seq: 1, time: 10, origin: .send, info: "Parent")
    _ = timing.received(seq: 2, time: 10.1, origin: .parent, info: "Child")
    let ended = timing.caused(by: 2, at: 10.4)
    #expect(ended.map(\.info) == ["Child", "Parent"])
    #expect(ended.map(\.time) == [10.1, 10])
  }

  @Test func aNewActionLeavesTheLastOneUnmeasured() {
    var timing = ReducerTiming<String>()
    _ = timing.received(seq: 1, time: 10, origin: .send, info: "Quiet")
    let unmeasured = timing.received(seq: 2, time: 20, origin: .effect, info: "Next")
    #expect(unmeasured.map(\.info) == ["Quiet"])
    #expect(timing.caused(by: 1, at: 21).isEmpty)
    #expect(timing.finish().map(\.info) == ["Next"])
  }

  @Test func causes() {
    let changed = Event(seq: 5, time: 1, payload: .stateChanged(StateChanged(store: "S#1", cause: 4, changes: [], summary: "")))
    let cancelled = Event(
      seq: 6, time: 1,
      payload: .effectCancelled(EffectCancelled(store: "S#1", effect: 1, cancelID: nil, reason: .cancel, by: .init(store: "S#2", cause: 3))))
    let mark = Event(seq: 7, time: 1, payload: .mark(Mark(label: "x")))
    #expect(ReducerTiming<String>.cause(of: changed) == 4)
    #expect(ReducerTiming<String>.cause(of: cancelled) == 3)
    #expect(ReducerTiming<String>.cause(of: mark) == nil)
  }
}
