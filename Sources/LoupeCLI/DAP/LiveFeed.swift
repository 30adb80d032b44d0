import LoupeCore
import LoupeRPC
import LoupeSession
import LoupeClient

/// What the editor is told as events arrive and as the session ends: the timeline in the
/// debug console (at a bounded rate, ``ConsoleLimiter``), store `thread` events, live events
/// that stop the view, and — at every end of a session — why it ended.
extension DAPSession {
  /// Writes the timeline lines (`output`) and store `thread` events for the events the view has
  /// not passed yet, up to `end` — at most ``reportLimit`` lines per move, and no more lines
  /// than the console's rate allows (the rest are counted in one line).
  func report(upTo end: Int) {
    guard end > reportedUpTo else { return }
    var renderer = TimelineRenderer(style: Style(enabled: false))
    let skipped = max(0, end - reportedUpTo - Self.reportLimit)
    if skipped > 0 {
      channel.output("… \(Formatting.count(skipped)) events not shown (loupe show has them all)\n")
      for change in SkippedThreads.changes(in: reportedUpTo..<(reportedUpTo + skipped), of: model) {
        channel.event("thread", ["reason": .string(change.started ? "started" : "exited"), "threadId": .int(threads.id(for: change.store))])
      }
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
      let admission = console.admit()
      if let count = admission.summary { channel.output(ConsoleLimiter.summary(count)) }
      guard admission.writes else { continue }
      let text = renderer.render(event, format: .text)
      if !text.isEmpty { channel.output(text) }
    }
    reportedUpTo = end
    if console.leftOut > 0 { scheduleConsoleSummary() }
  }

  static let reportLimit = 500

  /// Writes the count of the lines left out that no line has counted yet.
  func writeLeftOut() {
    if let count = console.takeLeftOut() { channel.output(ConsoleLimiter.summary(count)) }
  }

  /// After a burst the console may stay quiet: one interval later, the count of what it left
  /// out is written anyway.
  private func scheduleConsoleSummary() {
    guard !consoleSummaryScheduled else { return }
    consoleSummaryScheduled = true
    let interval = console.interval
    Task { [weak self] in
      try? await Task.sleep(for: interval)
      await self?.consoleSummaryDue()
    }
  }

  private func consoleSummaryDue() {
    consoleSummaryScheduled = false
    guard phase == .open else { return }
    writeLeftOut()
  }

  // MARK: - Live

  /// Live events as the connection delivered them (``DAPLiveRecording``): lines of the
  /// recording are read back and decoded here (one that does not decode is skipped, as the
  /// feed skips it), events it could not write come decoded.
  func ingest(_ delivery: LiveEventFeed.Delivery) {
    switch delivery {
    case .lines(let locations):
      for location in locations {
        if let event = model.event(atLine: location) { ingest(event, at: location) }
      }
    case .events(let items):
      for item in items { ingest(item.event, at: item.location) }
    }
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

  /// The live program's connection closed (`reason`; `status` when the program's exit is
  /// known). A running view ends the session, saying why; a stopped one stays open on what
  /// was received (the console says so) until the editor continues to the end.
  func liveEnded(status: LaunchedProgram.ExitStatus?, reason: Connection.CloseReason) {
    guard phase == .open else { return }
    liveFinished = true
    writeLeftOut()
    var text: String
    if let status {
      text = "The program \(status)."
    } else if reason == .endOfInput {
      text = "The program closed the connection."
    } else {
      text = "The connection to the program ended: \(reason)."
    }
    if stop == nil || terminating {
      endSession(text + " The session ends.", exitCode: status.map { Int($0.shellStatus) })
    } else {
      channel.output(text + " The view stays at what was received: continue to the end to close the session.\n", category: "important")
      if let status {
        exitedSent = true
        channel.event("exited", ["exitCode": .int(Int(status.shellStatus))])
      }
    }
  }

  /// Every end of a session the editor did not ask for: the reason (`output`, category
  /// `important`), `exited` when the program's exit is known, then `terminated` — once.
  func endSession(_ reason: String, exitCode: Int? = nil) {
    guard !terminatedSent else { return }
    terminatedSent = true
    writeLeftOut()
    channel.output(reason + "\n", category: "important")
    if let exitCode, !exitedSent { channel.event("exited", ["exitCode": .int(exitCode)]) }
    exitedSent = true
    channel.event("terminated")
  }
}
