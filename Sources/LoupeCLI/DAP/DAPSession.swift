import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession

/// One debugging session of `loupe dap`: what was opened (a recording or a live program), where
/// the view stands (``StopPoint``), the breakpoints, and the ids handed to the editor.
///
/// The timeline itself — events by `seq`, store and cause, effects alive, the state of a store
/// at any `seq` — is the shared ``SessionModel``; this type only walks it. Requests are handled
/// one at a time (see ``DAPServer``); live events are fed in with ``ingest(_:)``.
///
/// What a stop means: the view is frozen at one event. A recording simply has a position. A
/// live program is **never paused** (CONTRACT §11): while stopped, its events keep arriving
/// and are kept, and `continue` catches up with them — stopping at the first later event that
/// hits a breakpoint, or running at the present.
actor DAPSession {
  enum Phase: Sendable, Equatable {
    /// Before `initialize`.
    case new
    /// After `initialize`, before `launch`/`attach`.
    case initialized
    /// A recording or program is open.
    case open
    /// `disconnect` answered, or the input ended.
    case finished
  }

  /// Where the view stands: the event it is stopped at and the store in focus.
  struct StopPoint: Sendable, Equatable {
    var index: Int
    var thread: Int
  }

  let channel: DAPChannel
  let environment: [String: String]
  var phase = Phase.new
  var target: DAPTarget?
  var model = SessionModel()
  /// A live session's own recording, which the model indexes (removed at the end).
  var liveRecording: DAPLiveRecording?
  /// The doctor's rules over the model, for the exception filters.
  var doctorSignals = DoctorSignals()
  /// `nil` while running (live only: a recording always has a position once configured).
  var stop: StopPoint?
  var configured = false
  var stopOnEntry = false
  /// Shown in the console and where the view stops; the model keeps every event regardless.
  var filter = EventFilter.all
  var breakpoints = DAPBreakpoints()
  var references = DAPReferences()
  var threads = DAPThreads()
  /// Where the files the frames name are on this machine (`sourceMap`, `sourceRoot`).
  var sources = DAPSources()
  /// A live step that found no target yet: the next event that satisfies it stops there.
  var pendingStep: PendingStep?
  /// Events up to this index were written to the console (`output`) and announced (`thread`).
  var reportedUpTo = 0
  /// The live program's connection has closed (its events are all in the model).
  var liveFinished = false
  /// `terminate` was asked: the program's end ends the session, stopped or not.
  var terminating = false
  /// How many timeline lines the console gets (a bounded rate; the rest are counted).
  var console = ConsoleLimiter()
  /// A count of left-out console lines is due once the console has been quiet for a while.
  var consoleSummaryScheduled = false
  /// `terminated` (and `exited`) went out: the editor was told the session ended.
  var terminatedSent = false
  var exitedSent = false
  /// The client counts lines and columns from 1 unless it says otherwise.
  var linesStartAt1 = true

  init(channel: DAPChannel, environment: [String: String], console: ConsoleLimiter = ConsoleLimiter()) {
    self.channel = channel
    self.environment = environment
    self.console = console
  }

  var isFinished: Bool { phase == .finished }
  var isOpen: Bool { phase == .open }

  /// Answers one request (or sends its error response).
  func handle(_ request: DAPRequest) async {
    do throws(DAPError) {
      try checkPhase(for: request.command)
      try await dispatch(request)
    } catch {
      channel.fail(error, requestSeq: request.seq, command: request.command)
    }
  }

  private func checkPhase(for command: String) throws(DAPError) {
    switch (phase, command) {
    case (.new, "initialize"), (.new, "disconnect"): return
    case (.new, _): throw DAPError(.wrongState, "'\(command)' before 'initialize'.")
    case (.initialized, "initialize"), (.open, "initialize"): throw DAPError(.wrongState, "'initialize' was already sent.")
    case (.finished, _): throw DAPError(.wrongState, "The session has ended.")
    default: return
    }
  }

  private func dispatch(_ request: DAPRequest) async throws(DAPError) {
    switch request.command {
    case "initialize": try initialize(request)
    case "launch": try await launch(request)
    case "attach": try await attach(request)
    case "configurationDone": try configurationDone(request)
    case "disconnect": try await disconnect(request)
    case "terminate": try await terminate(request)
    case "threads": try threadsRequest(request)
    case "stackTrace": try stackTrace(request)
    case "scopes": try scopes(request)
    case "variables": try variables(request)
    case "evaluate": try await evaluateOrSend(request)
    case "setVariable": try await setVariable(request)
    case "source": try source(request)
    case "continue": try resume(request)
    case "next", "stepIn", "stepOut", "stepBack": try step(request)
    case "reverseContinue": try reverseContinue(request)
    case "pause": try pause(request)
    case "goto": try goto(request)
    case "gotoTargets": try gotoTargets(request)
    case "setBreakpoints": try setBreakpoints(request)
    case "setFunctionBreakpoints": try setFunctionBreakpoints(request)
    case "setExceptionBreakpoints": try setExceptionBreakpoints(request)
    case "dataBreakpointInfo": try dataBreakpointInfo(request)
    case "setDataBreakpoints": try setDataBreakpoints(request)
    default:
      throw DAPError(.unknownCommand, "loupe dap does not support '\(request.command)'.")
    }
  }

  /// Requests that need an open session.
  func requireOpen(_ command: String) throws(DAPError) {
    guard phase == .open else { throw DAPError(.wrongState, "'\(command)' needs a 'launch' or 'attach' first.") }
  }

  /// Requests that need a position.
  func requireStop(_ command: String) throws(DAPError) -> StopPoint {
    try requireOpen(command)
    guard let stop else { throw DAPError(.wrongState, "Not stopped: '\(command)' needs the view stopped at an event.") }
    return stop
  }
}
