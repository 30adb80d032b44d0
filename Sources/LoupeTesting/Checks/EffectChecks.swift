extension DiagnosticStream {
  /// Asserts that every effect that started has finished or been cancelled: nothing leaks
  /// past the end of the test (TCA's "An effect returned for this action is still running").
  ///
  /// Await the effects first (`StoreTask.finish()`, `TestClock.advance(by:)`); an effect that
  /// ends a moment later is still running when this looks.
  public func assertNoEffectLeftRunning(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let ledger = EffectLedger(events)
    let running = ledger.running
    guard !running.isEmpty else { return }
    var rows = StoryRows()
    for entry in running {
      if let cause = ledger.actionLine(entry.info.cause) { rows.context(seq: cause.seq, cause.text) }
      rows.context(entry.started)
      rows.expected(
        "effect.finished or effect.cancelled \(entry.info.store) effect: \(entry.info.effect)", near: entry.started.seq)
    }
    let header = running.count == 1
      ? "An effect is still running: it started, and it neither finished nor was cancelled."
      : "\(running.count) effects are still running: they started, and they neither finished nor were cancelled."
    let them = running.count == 1 ? "it" : "them"
    let footer = "Cancel \(them) (.cancel(id:), StoreTask.cancel()) or await \(them) (StoreTask.finish(), TestClock.advance(by:)) before this check."
    FailureReporter.fail(rows.diff.message(header, footer: footer), at: site)
  }

  /// Asserts that an effect with `cancelID` was cancelled, and, when given, in which store,
  /// why, and by which store's action.
  ///
  /// ```swift
  /// recorder.assertEffectCancelled(cancelID: "timer", store: "PageFeature#1", by: "PageFeature#1")
  /// ```
  ///
  /// - Parameters:
  ///   - cancelID: The effect's cancel id (a pattern; `"timer"` names the case alone).
  ///   - store: The store the effect belonged to (a pattern).
  ///   - reason: Why it was cancelled.
  ///   - by: The store whose action cancelled it (a pattern).
  public func assertEffectCancelled(
    cancelID: String, store: String? = nil, reason: EffectCancelled.Reason? = nil, by: String? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let expectation = EventExpectation.effectCancelled(store: store, cancelID: cancelID, reason: reason, by: by)
    let events = self.events
    guard !events.contains(where: expectation.matches) else { return }
    let ledger = EffectLedger(events)
    let candidates = ledger.entries.filter { Self.entry($0, cancelID: cancelID, store: store) }
    var rows = StoryRows()
    for entry in candidates {
      rows.context(entry.started)
      guard let ended = entry.ended else { continue }
      if case .effectCancelled(let cancelled) = ended.payload, let by = cancelled.by, let cause = ledger.actionLine(by.cause) {
        rows.context(seq: cause.seq, cause.text)
      }
      rows.actual(ended)
    }
    let anchor = candidates.first.map { $0.ended?.seq ?? $0.started.seq }
    rows.expected(expectation.description, near: anchor ?? 0, before: candidates.first?.ended != nil)
    var header = "No effect was cancelled as expected."
    if candidates.isEmpty { header += " No effect with this cancel id started." }
    FailureReporter.fail(rows.diff.message(header), at: site)
  }

  /// Asserts that no effect with `cancelID` (in `store`, when given) was cancelled, for
  /// whatever reason and by whichever store.
  ///
  /// The check for seed 000's bug: a page's timer must survive another page being shown.
  ///
  /// ```swift
  /// recorder.assertEffectNotCancelled(cancelID: "timer", store: "PageFeature#1")
  /// ```
  public func assertEffectNotCancelled(
    cancelID: String, store: String? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let ledger = EffectLedger(events)
    let cancelled = ledger.entries.filter { entry in
      guard Self.entry(entry, cancelID: cancelID, store: store), case .effectCancelled? = entry.ended?.payload else { return false }
      return true
    }
    guard !cancelled.isEmpty else { return }
    var rows = StoryRows()
    var others: [String] = []
    for entry in cancelled {
      guard let ended = entry.ended, case .effectCancelled(let info) = ended.payload else { continue }
      rows.context(entry.started)
      if let by = info.by {
        if let cause = ledger.actionLine(by.cause) { rows.context(seq: cause.seq, cause.text) }
        if !isSameOrDescendant(info.store, of: by.store) { others.append("\(by.store) cancelled an effect of \(info.store)") }
      }
      rows.actual(ended)
    }
    let subject = "with cancelID \(cancelID)" + (store.map { " in \($0)" } ?? "")
    let header = cancelled.count == 1
      ? "An effect \(subject) was cancelled."
      : "\(cancelled.count) effects \(subject) were cancelled."
    let footer = others.isEmpty
      ? nil : Self.sharedCancelIDsNote(Array(Set(others)).sorted().joined(separator: "; ") + ".")
    FailureReporter.fail(rows.diff.message(header, footer: footer), at: site)
  }

  /// Asserts that no effect (of `store`, when given) was cancelled by the action of another
  /// store — one that is neither its own nor one of its ancestors: the shared-cancellation
  /// bug of seed 000, where one page's `cancelInFlight` stopped another page's timer.
  ///
  /// - Parameter store: Only effects of these stores (a pattern) are checked.
  public func assertNoEffectCancelledByAnotherStore(
    store: String? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let ledger = EffectLedger(events)
    let storeGlob = store.map(Glob.init)
    var rows = StoryRows()
    var count = 0
    for entry in ledger.entries {
      guard let ended = entry.ended, case .effectCancelled(let info) = ended.payload, let by = info.by,
        !isSameOrDescendant(info.store, of: by.store), storeGlob?.matches(info.store) ?? true
      else { continue }
      count += 1
      rows.context(entry.started)
      if let cause = ledger.actionLine(by.cause) { rows.context(seq: cause.seq, cause.text) }
      rows.actual(ended)
    }
    guard count > 0 else { return }
    let header = count == 1 ? "An effect was cancelled by another store." : "\(count) effects were cancelled by another store."
    FailureReporter.fail(rows.diff.message(header, footer: Self.sharedCancelIDsNote(nil)), at: site)
  }

  static func sharedCancelIDsNote(_ what: String?) -> String {
    (what.map { $0 + " " } ?? "")
      + "Cancel ids are shared between these stores (cancellation: .processWide, or separate TCA stores before effect isolation): give each page one parent store, or isolated cancellation."
  }

  private static func entry(_ entry: EffectLedger.Entry, cancelID: String, store: String?) -> Bool {
    guard let id = entry.info.cancelID, NamePattern(cancelID).matches(id) else { return false }
    if let store, !Glob(store).matches(entry.info.store) { return false }
    return true
  }
}
