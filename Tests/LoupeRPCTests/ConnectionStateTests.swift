import Testing
@testable import LoupeRPC

/// The transitions of a connection's lifecycle and its two sides (the threads that follow
/// them are tested in ConnectionTests, TransportTests, SharedWaitTests and the TSan check).
@Suite struct ConnectionStateTests {
  @Test func finishingDrainsTheSourceIfAnyCallAsked() {
    var lifecycle = ConnectionLifecycle.open
    #expect(lifecycle.takesFrames)
    lifecycle.finish(drainingSource: true)
    #expect(lifecycle == .finishing(drainsSource: true))
    lifecycle.finish(drainingSource: false)
    #expect(lifecycle == .finishing(drainsSource: true))
    #expect(!lifecycle.takesFrames)

    var other = ConnectionLifecycle.open
    other.finish(drainingSource: false)
    #expect(other == .finishing(drainsSource: false))
  }

  @Test func abortingWinsOverFinishingButNotOverClosed() {
    var lifecycle = ConnectionLifecycle.finishing(drainsSource: true)
    lifecycle.abort()
    #expect(lifecycle == .aborted)
    lifecycle.finish(drainingSource: true)
    #expect(lifecycle == .aborted)

    var closed = ConnectionLifecycle.closed
    closed.abort()
    closed.finish(drainingSource: true)
    #expect(closed == .closed)
    #expect(!closed.takesFrames)
  }

  @Test func aReaderRemembersWhetherItHadAThread() {
    var watched = ConnectionReader.waiting
    #expect(watched.isStarted && !watched.hasHadThread)
    watched.end()
    #expect(watched == .done(hadThread: false))

    var reading = ConnectionReader.reading
    #expect(reading.hasHadThread)
    reading.end()
    #expect(reading == .done(hadThread: true) && reading.isDone && reading.hasHadThread)
    #expect(!ConnectionReader.notStarted.isStarted)
  }

  @Test func aWriterNeverStartedEndsWithoutAThread() {
    var idle = ConnectionWriter.notStarted
    idle.endIfNotStarted()
    #expect(idle == .done(hadThread: false) && idle.isDone && !idle.hasHadThread)

    var running = ConnectionWriter.running(idle: true)
    running.endIfNotStarted()
    #expect(running == .running(idle: true) && running.hasHadThread && !running.isDone)
  }
}
