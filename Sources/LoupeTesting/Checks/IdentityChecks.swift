extension DiagnosticStream {
  /// Asserts that the identity behind `store` never changed: after its first
  /// `identity.changed` (it was created, presented or inserted), none followed — it was not
  /// dismissed, removed or replaced, and no new identity began.
  ///
  /// A new identity starts with fresh state and no effects: seed 002's play button, whose
  /// `isPlaying` reset because hiding and showing it made a new identity.
  ///
  /// - Parameter store: The store id (a pattern; each matching store is checked on its own).
  public func assertIdentityUnchanged(
    _ store: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let events = self.events
    guard let histories = identityHistories(store, in: events, at: site) else { return }
    for history in histories where history.changes.count > 1 {
      var rows = StoryRows()
      rows.context(history.changes[0])
      for change in history.changes.dropFirst() {
        if let cause = Self.actionBefore(change.seq, in: events) { rows.context(cause) }
        rows.actual(change)
      }
      let first = history.changes[0].payload.identityChanged?.identity ?? "?"
      let header = "The identity of \(history.store) changed: it should have stayed \(first)."
      let footer = "A new identity starts with fresh state and no effects (seed 002: a view's state reset when it was hidden and shown)."
      FailureReporter.fail(rows.diff.message(header, footer: footer), at: site)
    }
  }

  /// Asserts that the identity behind `store` changed at least once after it was first
  /// seen, for `reason` when given (`.dismissed`, `.replaced`, …).
  public func assertIdentityChanged(
    _ store: String, reason: IdentityChanged.Reason? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let events = self.events
    guard let histories = identityHistories(store, in: events, at: site) else { return }
    let changed = histories.contains { history in
      history.changes.dropFirst().contains { reason == nil || $0.payload.identityChanged?.reason == reason }
    }
    guard !changed else { return }
    var rows = StoryRows()
    for history in histories {
      for change in history.changes { rows.context(change) }
      let expected = EventExpectation.identityChanged(history.store, reason: reason)
      rows.expected(expected.description, near: history.changes.last?.seq ?? 0)
    }
    let because = reason.map { " (\($0.rawValue))" } ?? ""
    let header = histories.count == 1
      ? "The identity of \(histories[0].store) did not change\(because)."
      : "No store matching \(store) changed its identity\(because)."
    FailureReporter.fail(rows.diff.message(header), at: site)
  }

  struct IdentityHistory {
    let store: String
    var changes: [Event]
  }

  /// The `identity.changed` events of each store matching `pattern`; reports a failure and
  /// returns `nil` when there are none.
  private func identityHistories(_ pattern: String, in events: [Event], at site: CallSite) -> [IdentityHistory]? {
    let glob = Glob(pattern)
    var histories: [IdentityHistory] = []
    for event in events {
      guard case .identityChanged(let info) = event.payload, glob.matches(info.store) else { continue }
      if let index = histories.firstIndex(where: { $0.store == info.store }) {
        histories[index].changes.append(event)
      } else {
        histories.append(IdentityHistory(store: info.store, changes: [event]))
      }
    }
    guard histories.isEmpty else { return histories }
    let known = Set(events.compactMap { $0.payload.identityChanged?.store }).sorted()
    FailureReporter.fail(
      "No store \(pattern) in the stream: "
        + (known.isEmpty ? "it has no identity.changed events." : "its stores are \(known.joined(separator: ", "))."),
      at: site)
    return nil
  }

  /// The last `action.received` before `seq`: the action whose processing made the change.
  private static func actionBefore(_ seq: Int, in events: [Event]) -> Event? {
    events.last { $0.seq < seq && $0.kind == ActionReceived.kind }
  }
}
