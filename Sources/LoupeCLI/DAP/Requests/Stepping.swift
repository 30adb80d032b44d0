import LoupeCore
import LoupeRPC
import LoupeSession
import LoupeClient

/// A step that found nothing yet in a live program: the first new event that satisfies it
/// stops the view there.
struct PendingStep: Sendable {
  enum Kind: Sendable {
    /// `stopOnEntry` before any event came.
    case entry
    /// `next`: the thread's store's next action.
    case nextAction(store: String?)
    /// `stepIn`: the next event the origin caused (or, failing that, the store's next action).
    case caused(by: Int, store: String?)
  }
  var kind: Kind
  var thread: Int
  var origin: Int?
}

/// `continue`, `next`, `stepIn`, `stepOut`, `stepBack`, `reverseContinue`, `pause`, `goto`,
/// `gotoTargets`: moving the view through the events.
extension DAPSession {
  /// `continue`: forward to the next event that hits a breakpoint; a recording stops at its
  /// last event when none does, a live program runs on at the present.
  func resume(_ request: DAPRequest) throws(DAPError) {
    let stop = try requireStop(request.command)
    channel.respond(to: request, body: ["allThreadsContinued": true])
    runForward(from: stop.index + 1, reason: nil)
  }

  /// `reverseContinue`: backward to the previous event that hits a breakpoint, or the first.
  func reverseContinue(_ request: DAPRequest) throws(DAPError) {
    let stop = try requireStop(request.command)
    channel.respond(to: request)
    var index = stop.index - 1
    while index >= 0 {
      if let hit = breakpointHit(at: index) {
        stopAt(index, reason: hit.reason, description: hit.description, hitIDs: hit.ids)
        return
      }
      index -= 1
    }
    stopAt(0, reason: "step", description: "At the first event: no breakpoint before #\(model.event(at: stop.index).seq)")
  }

  /// `next` (the store's next action), `stepIn` (the next event this one caused), `stepOut`
  /// (this event's cause), `stepBack` (back to the action behind this event — the one that
  /// cancelled an effect, started it or changed the state — or, from an action, the store's
  /// previous action).
  func step(_ request: DAPRequest) throws(DAPError) {
    let stop = try requireStop(request.command)
    let thread = try request.arguments.int("threadId") ?? stop.thread
    guard threads.isKnown(thread) else { throw DAPError(.unknownReference, "No thread \(thread).") }
    let store = threads.store(of: thread)
    let current = anchor(thread: thread, stop: stop) ?? stop.index
    channel.respond(to: request)
    let target: Int?
    var nothing: String
    switch request.command {
    case "next":
      target = model.nextAction(after: max(current, stop.index), store: store)
      nothing = "No later action of \(store ?? "the session")"
      if target == nil, isLive {
        pendingStep = PendingStep(kind: .nextAction(store: store), thread: thread, origin: current)
        self.stop = nil
        return
      }
    case "stepIn":
      target = model.consequences(of: current).first { $0 > current } ?? model.nextAction(after: max(current, stop.index), store: store)
      nothing = "#\(model.event(at: current).seq) caused nothing later, and \(store ?? "the session") has no later action"
      if target == nil, isLive {
        pendingStep = PendingStep(kind: .caused(by: current, store: store), thread: thread, origin: current)
        self.stop = nil
        return
      }
    case "stepOut":
      target = model.cause(of: current)
      nothing = "#\(model.event(at: current).seq) has no recorded cause"
    default:  // stepBack
      target = actionBehind(current) ?? model.previousAction(before: current, store: store)
      nothing = "No earlier action of \(store ?? "the session")"
    }
    if let target {
      stopAt(target, reason: "step", description: nil, thread: thread)
    } else {
      stopAt(stop.index, reason: "step", description: nothing + ": the view stays at #\(model.event(at: stop.index).seq)", thread: thread)
    }
  }

  /// The action behind an event that is not one: its nearest cause that is an action (the
  /// action that cancelled an effect, that started it, that changed the state).
  func actionBehind(_ index: Int) -> Int? {
    guard model.event(at: index).kind != ActionReceived.kind else { return nil }
    var next = model.cause(of: index)
    while let cause = next {
      if model.event(at: cause).kind == ActionReceived.kind { return cause }
      next = model.cause(of: cause)
    }
    return nil
  }

  /// `pause`: the view stops at the latest event of the thread (store) the user paused, or at
  /// the present (the latest event) for the session thread or a store with no event yet.
  func pause(_ request: DAPRequest) throws(DAPError) {
    try requireOpen(request.command)
    let thread = try request.arguments.int("threadId")
    channel.respond(to: request)
    pendingStep = nil
    guard model.count > 0 else { return }
    let present = model.count - 1
    if let thread, thread != DAPThreads.sessionThread, threads.isKnown(thread),
      let latest = model.lastIndex(atOrBefore: present, store: threads.store(of: thread))
    {
      stopAt(latest, reason: "pause", description: "Paused the view at \(threads.store(of: thread) ?? "the store")'s latest event (the program runs on)", thread: thread)
      return
    }
    stopAt(stop?.index ?? present, reason: "pause", description: "Paused the view at the present (the program runs on)")
  }

  /// `goto`: jump to an event; the target id is its `seq`.
  func goto(_ request: DAPRequest) throws(DAPError) {
    let stop = try requireStop(request.command)
    let seq = try request.arguments.requiredInt("targetId")
    guard let index = model.index(ofSeq: seq) else { throw DAPError(.unknownReference, "No event #\(seq) in this session.") }
    channel.respond(to: request)
    let thread = try request.arguments.int("threadId")
    stopAt(index, reason: "goto", description: nil, thread: thread ?? stop.thread)
  }

  static let maximumGotoTargets = 100

  /// `gotoTargets`: the events that came from a line (their `seq`s are the targets), oldest
  /// first, at most ``maximumGotoTargets``, then one target saying how many more there are.
  func gotoTargets(_ request: DAPRequest) throws(DAPError) {
    try requireOpen(request.command)
    let arguments = request.arguments
    let line = try arguments.requiredInt("line") + (linesStartAt1 ? 0 : 1)
    guard let source = try arguments.nested("source") else { throw DAPError(.invalidArguments, "'gotoTargets' needs 'source'.") }
    let file = DAPSourceMatch(path: try source.string("path"), name: try source.string("name"))
    var targets: [JSON] = []
    var more = 0
    var next: Int?
    for index in model.indices(atLine: line) {
      let event = model.event(at: index)
      guard let location = EventDescription.source(event), location.line == line, sources.matches(file, location) else { continue }
      if targets.count < Self.maximumGotoTargets {
        targets.append(["id": .int(event.seq), "label": .string(EventDescription.stopText(event)), "line": .int(self.line(line))])
      } else {
        more += 1
        next = next ?? event.seq
      }
    }
    if let next {
      // The rest are not listed: this last target says how many, and goes to the first of them.
      let label = "… \(more) more event\(more == 1 ? "" : "s") from this line: this goes to #\(next), the next of them"
      targets.append(["id": .int(next), "label": .string(label), "line": .int(self.line(line))])
    }
    channel.respond(to: request, body: ["targets": .array(targets)])
  }

  var isLive: Bool { target?.isLive == true }

  // MARK: - Moving

  /// Scans forward from `index` for a breakpoint. A recording stops at the hit or at its end;
  /// a live view stops at a hit among the events already received, or runs on at the present.
  func runForward(from index: Int, reason: String?) {
    var index = index
    while index < model.count {
      if let hit = breakpointHit(at: index) {
        stopAt(index, reason: hit.reason, description: hit.description, hitIDs: hit.ids)
        return
      }
      index += 1
    }
    if isLive && liveFinished {
      report(upTo: model.count)
      stop = nil
      channel.event("terminated")
    } else if isLive {
      report(upTo: model.count)
      stop = nil
      references.reset()
    } else if model.count > 0 {
      stopAt(model.count - 1, reason: "step", description: "End of the recording (#\(model.event(at: model.count - 1).seq))")
    }
  }

  /// Moves the view to the event at `index` and tells the editor.
  func stopAt(_ index: Int, reason: String, description: String?, hitIDs: [Int] = [], thread: Int? = nil) {
    let event = model.event(at: index)
    let focus = event.store.map { threads.id(for: $0) } ?? thread ?? DAPThreads.sessionThread
    report(upTo: index + 1)
    stop = StopPoint(index: index, thread: focus)
    pendingStep = nil
    references.reset()
    var body: JSONObject = [
      "reason": .string(reason), "threadId": .int(focus), "allThreadsStopped": true,
      "text": .string(EventDescription.stopText(event)),
      "description": .string(description ?? EventDescription.stopText(event)),
    ]
    if !hitIDs.isEmpty { body["hitBreakpointIds"] = .array(hitIDs.map(JSON.int)) }
    if isLive { body["preserveFocusHint"] = false }
    channel.event("stopped", .object(body))
  }

  /// Writes the timeline lines (`output`) and store `thread` events for the events the view has
  /// not passed yet, up to `end` — at most ``reportLimit`` lines per move.
  func report(upTo end: Int) {
    guard end > reportedUpTo else { return }
    var renderer = TimelineRenderer(style: Style(enabled: false))
    let skipped = max(0, end - reportedUpTo - Self.reportLimit)
    if skipped > 0 {
      channel.output("… \(skipped) events not shown (loupe show has them all)\n")
    }
    for index in (reportedUpTo + skipped)..<end {
      let event = model.event(at: index)
      switch event.payload {
      case .storeCreated(let e):
        channel.event("thread", ["reason": "started", "threadId": .int(threads.id(for: e.store))])
      case .storeDestroyed(let e):
        channel.event("thread", ["reason": "exited", "threadId": .int(threads.id(for: e.store))])
      default:
        break
      }
      guard filter.matches(event) else { continue }
      let text = renderer.render(event, format: .text)
      if !text.isEmpty { channel.output(text) }
    }
    reportedUpTo = end
  }

  static let reportLimit = 500

  // MARK: - Live

  /// Live events as the connection delivered them (``DAPLiveRecording``).
  func ingest(_ items: [LiveEventFeed.Item]) {
    for item in items { ingest(item.event, at: item.location) }
  }

  /// A live event: indexed by the model, at `location` in the session's recording; while
  /// running, it may hit a breakpoint or end a pending step, which stops the view there.
  func ingest(_ event: Event, at location: TraceLineLocation? = nil) {
    model.append(event, at: location)
    let index = model.count - 1
    guard configured, stop == nil else { return }
    if let pending = pendingStep {
      var satisfied = false
      switch pending.kind {
      case .entry:
        satisfied = true
      case .nextAction(let store):
        if case .actionReceived = event.payload, event.store == store { satisfied = true }
      case .caused(let origin, let store):
        satisfied = model.cause(of: index) == origin || (event.store == store && event.kind == ActionReceived.kind)
      }
      if satisfied {
        stopAt(index, reason: pending.kind.isEntry ? "entry" : "step", description: nil, thread: pending.thread)
        return
      }
    }
    if let hit = breakpointHit(at: index) {
      stopAt(index, reason: hit.reason, description: hit.description, hitIDs: hit.ids)
    } else {
      report(upTo: model.count)
    }
  }

  /// The live program's connection closed. A running view ends the session; a stopped one stays
  /// open on what was received (the console says so) until the editor continues to the end.
  func liveEnded(status: LaunchedProgram.ExitStatus?) {
    guard phase == .open else { return }
    if let status {
      channel.output("The program \(status).\n")
      channel.event("exited", ["exitCode": .int(Int(status.shellStatus))])
    } else {
      channel.output("The program closed the connection.\n")
    }
    liveFinished = true
    if stop == nil || terminating { channel.event("terminated") }
  }
}

extension PendingStep.Kind {
  var isEntry: Bool { if case .entry = self { true } else { false } }
}
