@testable import LoupeCLI
import LoupeCore
import LoupeRPC
import Testing

/// `loupe dap`'s console under load (issue 33 #16): a bounded number of lines per interval of
/// the adapter's clock — here a clock the test moves by hand — and one line counting the rest;
/// and an end of the editor's connection that cannot carry a message says why on stderr.
@Suite struct DAPConsoleTests {
  /// A clock the test sets.
  final class HandClock: Sendable {
    let time = Lock(Duration.zero)
    func advance(_ by: Duration) { time.withLock { $0 += by } }
    var now: @Sendable () -> Duration { { [self] in time.withLock { $0 } } }
  }

  @Test func atMostNLinesPerIntervalThenOneLineCountsTheRest() {
    let clock = HandClock()
    var limiter = ConsoleLimiter(linesPerInterval: 3, interval: .seconds(1), now: clock.now)
    let write = ConsoleLimiter.Admission(summary: nil, writes: true)
    let leaveOut = ConsoleLimiter.Admission(summary: nil, writes: false)
    #expect((0..<5).map { _ in limiter.admit() } == [write, write, write, leaveOut, leaveOut])
    clock.advance(.milliseconds(999))
    #expect(limiter.admit() == leaveOut)  // the same interval
    #expect(limiter.leftOut == 3)
    clock.advance(.milliseconds(1))
    // A new interval: its first line brings the count of the last one's left-out lines.
    #expect(limiter.admit() == ConsoleLimiter.Admission(summary: 3, writes: true))
    #expect(limiter.admit() == write)
    #expect(limiter.takeLeftOut() == nil)
    clock.advance(.seconds(5))
    #expect((0..<4).map { _ in limiter.admit() } == [write, write, write, leaveOut])
    // A stop or the end (or a quiet interval) writes the count without waiting for a line.
    #expect(limiter.takeLeftOut() == 1)
    #expect(limiter.takeLeftOut() == nil)
  }

  @Test func theCountLineSaysWhereTheEventsAre() {
    #expect(ConsoleLimiter.summary(12_345) == "… 12,345 events not shown in the console; the Threads/stack still have them\n")
    #expect(ConsoleLimiter.summary(1) == "… 1 event not shown in the console; the Threads/stack still have them\n")
  }

  @Test func aFailedConnectionToTheEditorIsAFailureThatStderrExplains() {
    let stderr = Output(capturingWithColor: false)
    #expect(DAPCommand.exitStatus(after: .outputOverflow, stderr: stderr) == ExitStatus.failure)
    #expect(stderr.text == "loupe dap: the connection to the editor ended (too much unread output): the session ended with it.\n")
    let quiet = Output(capturingWithColor: false)
    #expect(DAPCommand.exitStatus(after: .endOfInput, stderr: quiet) == ExitStatus.success)
    #expect(DAPCommand.exitStatus(after: .closedLocally, stderr: quiet) == ExitStatus.success)
    #expect(quiet.text == "")
  }
}
