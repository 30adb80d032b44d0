import Foundation
import Testing
@testable import LoupeCore

/// `EventBus.now()` reads the clock `ContinuousClock` reads, from the session's start, in
/// whole nanoseconds (the form `JSONWriter.double` prints without `Double.description`).
@Suite struct EventBusClockTests {
  @Test func nowIsTheContinuousClockSinceTheSessionStarted() {
    let before = ContinuousClock.now
    let bus = EventBus(program: "clock")
    let afterStart = ContinuousClock.now
    var times: [Double] = []
    for _ in 0..<1_000 { times.append(bus.now()) }
    let beforeLast = ContinuousClock.now
    times.append(bus.now())
    let end = ContinuousClock.now
    func milliseconds(_ duration: Duration) -> Double {
      Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
    // Between the clock's readings around it: the bus began between `before` and
    // `afterStart`, so its last reading is at least `beforeLast - afterStart` and at most
    // `end - before`.
    #expect(times.first! >= 0)
    #expect(times.last! >= milliseconds(beforeLast - afterStart) - 1e-6)
    #expect(times.last! <= milliseconds(end - before) + 1e-6)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "the clock went back")
    for time in times {
      let nanoseconds = (time * 1e6).rounded()
      #expect(nanoseconds / 1e6 == time, "\(time) is not a whole number of nanoseconds")
    }
  }
}
