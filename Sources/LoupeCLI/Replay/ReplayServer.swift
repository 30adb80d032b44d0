import Dispatch
import Foundation
import LoupeCore
import LoupeRPC
import LoupeSession

/// Serves a trace file over the protocol, as if the recorded program were running: what
/// `loupe replay` connects to an editor's stdin/stdout.
///
/// - `initialize` names the recorded program and pid.
/// - `loupe/subscribe` streams the trace's events that pass the filter, in order, straight
///   from the file (raw lines, constant memory). With `history: true` they count as history
///   (their number is the result); without it they are sent as live events, so an editor sees
///   the recording either way.
/// - `loupe/stores` lists the stores alive at the end of the trace.
/// - `loupe/state` answers for any `seq` of the trace (`at`; default its last event) with the
///   state rebuilt from the trace's snapshots and changes (``TraceStateIndex``, CONTRACT §10),
///   `approximate` when it is; what the trace cannot tell is `-32602` saying what is missing
///   (``StateQuery``).
/// - `loupe/mark` adds a mark after the recording, numbered after its last event.
///
/// Requests are answered one after another, in the order they came, off the reader thread
/// (the first `loupe/state` indexes the trace's states in one pass; later ones read back only
/// a snapshot and the changes after it). `shutdown` (answered by the session after every
/// request before it) ends nothing a subscription was promised: every event of the recording that
/// passes its filter is still sent (the connection drains this source before it closes).
final class ReplayServer: RequestHandler, OutgoingSource, Sendable {
  private struct Stream {
    var reader: TraceReader
    var filter: EventFilter
  }

  private struct State {
    var stream: Stream?
    var marks: [Event] = []
    /// The `seq` of the next mark; `nil` until the first (it needs the trace's last `seq`).
    var nextSeq: Int?
    var subscribed = false
    /// Requests queued or being answered, by id, with a token telling one from a later
    /// request with the same id; a cancelled one is removed, so it is skipped.
    var pending: [RequestID: Int] = [:]
    var nextToken = 0
  }

  /// Where the trace's states are, indexed by the first `loupe/state`; used on `work` only.
  private let states = Lock<TraceStateIndex?>(nil)

  // `TraceReader` is not Sendable; it is only used under this lock.
  private let state: Lock<State>
  /// Answers the requests, one at a time, in the order they came.
  private let work = DispatchQueue(label: "loupe.replay.requests")
  let path: String
  let catalog: TraceCatalog
  let stderr: Output
  private let wake: @Sendable () -> Void
  static let maxEventsPerNotification = 256

  init(path: String, catalog: TraceCatalog, stderr: Output, wake: @escaping @Sendable () -> Void) {
    self.path = path
    self.catalog = catalog
    self.stderr = stderr
    self.wake = wake
    state = Lock(State())
  }

  // MARK: ServerHandler

  func initialize(_ request: InitializeRequest) -> InitializeResult {
    InitializeResult(
      serverInfo: .init(name: "loupe replay", version: LoupeCLI.version),
      process: .init(pid: catalog.header.pid, name: catalog.header.program))
  }

  /// Queues `request` on the work queue, where ``RequestHandler/dispatch(_:reply:)`` answers it.
  func handle(_ request: IncomingRequest, reply: Reply) {
    let token = state.withLock { state in
      state.nextToken += 1
      state.pending[request.id] = state.nextToken
      return state.nextToken
    }
    work.async { [self] in
      let current = state.withLock { $0.pending[request.id] == token }
      guard current else { return }  // cancelled before its turn
      dispatch(request, reply: reply)
      state.withLock { state in
        if state.pending[request.id] == token { state.pending[request.id] = nil }
      }
    }
  }

  func cancelled(_ id: RequestID) {
    state.withLock { _ = $0.pending.removeValue(forKey: id) }
  }

  // MARK: Requests (routed by `RequestDispatch`, on the work queue)

  func handle(_ request: UnsubscribeRequest, reply: TypedReply<UnsubscribeRequest>) {
    state.withLock {
      $0.stream = nil
      $0.subscribed = false
    }
    reply(NullResult())
  }

  func handle(_ request: StoresRequest, reply: TypedReply<StoresRequest>) {
    reply(catalog.stores)
  }

  func handle(_ request: StateRequest, reply: TypedReply<StateRequest>) throws(ResponseError) {
    reply(try state(request))
  }

  /// A recording has no program to act on: control is refused as in a program that does not
  /// allow it, with the reason.
  func handle(_ request: SendRequest, reply: TypedReply<SendRequest>) throws(ResponseError) {
    throw Self.noProgram(SendRequest.method)
  }

  func handle(_ request: SetStateRequest, reply: TypedReply<SetStateRequest>) throws(ResponseError) {
    throw Self.noProgram(SetStateRequest.method)
  }

  private static func noProgram(_ method: String) -> ResponseError {
    ResponseError(
      code: .controlNotAllowed,
      message: "Control not allowed: loupe replay serves a recording, there is no program for \(method) to act on (attach to the running program instead)")
  }

  func handle(_ request: MarkRequest, reply: TypedReply<MarkRequest>) {
    // The catalog's pass, outside the lock.
    let first = state.withLock { $0.nextSeq } == nil ? catalog.lastSeq + 1 : 0
    let seq = state.withLock { state in
      let seq = state.nextSeq ?? first
      state.nextSeq = seq + 1
      if state.subscribed {
        state.marks.append(Event(seq: seq, time: catalog.lastTime, payload: .mark(Mark(label: request.label))))
      }
      return seq
    }
    reply(.init(seq: seq))
    wake()
  }

  /// `loupe/state` for any `seq` of the trace.
  private func state(_ request: StateRequest) throws(ResponseError) -> StateRequest.Result {
    let path = try request.statePath() ?? .root
    let answer: Result<StateRequest.Result, ResponseError> = states.withLock { states in
      do throws(ResponseError) {
        if states == nil {
          do throws(TraceError) {
            states = try TraceStateIndex(tracePath: self.path)
          } catch {
            throw .internalError(error.description)
          }
        }
        let query = StateQuery(states: states!)
        do throws(StateQuery.Failure) {
          let seq = try query.seq(request.at)
          _ = try query.stores(matching: Glob.literal(request.store), atSeq: seq)
          let state = try query.state(of: request.store, atSeq: seq, path: path)
          return .success(.init(store: request.store, seq: seq, state: state.value, approximate: state.approximate, shape: state.shape))
        } catch {
          throw .invalidParams(error.message)
        }
      } catch {
        return .failure(error)
      }
    }
    return try answer.get()
  }

  func handle(_ request: SubscribeRequest, reply: TypedReply<SubscribeRequest>) throws(ResponseError) {
    let count: Int
    do throws(CommandFailure) {
      // Every event passes an empty filter: the catalog has counted them (the same reader).
      count = !request.history ? 0 : request.filter.isEmpty ? catalog.events : try Self.count(path, filter: request.filter)
    } catch {
      throw .internalError(error.message)
    }
    let opened: Result<Void, CommandFailure> = state.withLock { state in
      do throws(CommandFailure) {
        let reader = try TraceInput.open(path)
        // The catalog's pass (made to count the history) checked every line already.
        if request.filter.isEmpty { catalog.shareChecks(with: reader) }
        state.stream = Stream(reader: reader, filter: request.filter)
        state.subscribed = true
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    if case .failure(let error) = opened { throw .internalError(error.message) }
    // Queued before any event: the writer sends answers before it asks for events.
    reply(.init(history: count))
    wake()
  }

  private static func count(_ path: String, filter: EventFilter) throws(CommandFailure) -> Int {
    let reader = try TraceInput.open(path)
    var count = 0
    while try TraceInput.next(reader, filter: filter, decode: false) != nil { count += 1 }
    return count
  }

  // `shutdown`: the session answers it after every request before it; the subscription's
  // events still flow.

  // MARK: OutgoingSource

  func nextOutgoingBody() -> [UInt8]? {
    state.withLock { state in
      var body = Array(#"{"jsonrpc":"2.0","method":"loupe/events","params":{"events":["#.utf8)
      var count = 0
      if let stream = state.stream {
        do {
          while count < Self.maxEventsPerNotification,
            let item = try stream.reader.next(filter: stream.filter, decode: false)
          {
            if count > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: item.bytes)
            count += 1
          }
          if count < Self.maxEventsPerNotification {
            state.stream = nil
            report(stream.reader)
          }
        } catch {
          stderr.line("loupe replay: \(error)")
          state.stream = nil
        }
      }
      if state.stream == nil {
        for mark in state.marks {
          if count > 0 { body.append(UInt8(ascii: ",")) }
          body.append(contentsOf: mark.jsonText.utf8)
          count += 1
        }
        state.marks = []
      }
      guard count > 0 else { return nil }
      body.append(contentsOf: "]}}".utf8)
      return body
    }
  }

  private func report(_ reader: TraceReader) {
    if let truncation = reader.truncation { stderr.line("loupe replay: warning: \(reader.path): \(truncation)") }
    if reader.malformedLineCount > 0 {
      stderr.line("loupe replay: warning: \(reader.path): \(Formatting.plural(reader.malformedLineCount, "malformed line")) skipped")
    }
  }
}
