extension DiagnosticStream {
  /// Asserts that the events since the previous `expect` (or the start) are `expectations`,
  /// in order.
  ///
  /// With ``Exhaustivity/on`` (the default) every event the stream's ``filter`` lets
  /// through (further narrowed by `kinds` and `stores`) must be expected, and nothing else
  /// may have happened; with ``Exhaustivity/off`` the expected events must have happened in
  /// this order and others in between are ignored. Each expectation checks only the fields
  /// it names (see ``EventExpectation``).
  ///
  /// ```swift
  /// store.send(.onAppear)
  /// await clock.advance(by: .seconds(1))
  /// recorder.expect([
  ///   .action("PageFeature.Action.onAppear", store: "PageFeature#1"),
  ///   .effectStarted(cancelID: "timer"),
  ///   .action("timerTicked", origin: .effect),
  ///   .stateChanged(changes: [.replace("count", from: 0, to: 1)]),
  /// ])
  /// ```
  ///
  /// On failure the message shows the events with the expected ones that did not happen
  /// (`−`) and the ones that were not expected (`+`):
  ///
  /// ```
  /// The stream does not match the expected events: 1 expected event did not happen, 1 unexpected event happened.
  ///
  ///     #8 action.received PageFeature#1 action: PageFeature.Action.onAppear, origin: send
  ///   − effect.started cancelID: timer
  ///   + #9 effect.started PageFeature#1 effect: 1, cause: #8
  ///
  /// (Expected: −, Actual: +)
  /// ```
  ///
  /// Afterwards the next `expect` looks at the events that come next: with exhaustivity on,
  /// the events after everything recorded so far; with it off, those after the last event
  /// that matched.
  ///
  /// - Parameters:
  ///   - expectations: The expected events, in order.
  ///   - kinds: Only events of these kinds (patterns: `"effect.*"`) are looked at.
  ///   - stores: Only events of these stores (patterns) are looked at; events that belong to
  ///     no store (`mark`) still are.
  ///   - exhaustivity: Overrides ``exhaustivity`` for this call.
  public func expect(
    _ expectations: [EventExpectation],
    kinds: [String]? = nil,
    stores: [String]? = nil,
    exhaustivity: Exhaustivity? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let snapshot = storage.state.withLock { $0 }
    var filter = snapshot.filter
    if let kinds { filter.kinds = kinds.map(Glob.init) }
    if let stores { filter.stores = stores.map(Glob.init) }
    let mode = exhaustivity ?? snapshot.exhaustivity
    let window = snapshot.events.indices[snapshot.cursor...].filter { index in
      let event = snapshot.events[index]
      return event.kind != SessionStarted.kind && filter.matches(event)
    }
    let events = window.map { snapshot.events[$0] }
    let alignment = Alignment(expected: expectations.count, actual: events.count) { expectations[$0].matches(events[$1]) }

    let lastMatched = alignment.steps.last { if case .matched = $0 { true } else { false } }
    switch (mode, lastMatched) {
    case (.on, _): storage.state.withLock { $0.cursor = snapshot.events.count }
    case (.off(_), .matched(_, let j)?): storage.state.withLock { $0.cursor = window[j] + 1 }
    case (.off(_), _): break
    }
    if let message = Self.mismatchMessage(alignment, expectations: expectations, events: events, mode: mode) {
      FailureReporter.fail(message, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }

  /// The failure message for `alignment`, or `nil` when it is a pass in `mode`.
  static func mismatchMessage(
    _ alignment: Alignment, expectations: [EventExpectation], events: [Event], mode: Exhaustivity
  ) -> String? {
    let missing = alignment.missing.count
    let unexpected = mode == .on ? alignment.unexpected.count : 0
    guard missing > 0 || unexpected > 0 else { return nil }
    var diff = DiffLines()
    for step in alignment.steps {
      switch step {
      case .matched(_, let j): diff.same(EventText.line(events[j]))
      case .missing(let i): diff.expected(expectations[i].description)
      case .unexpected(let j):
        if mode == .on { diff.actual(EventText.line(events[j])) } else { diff.same(EventText.line(events[j])) }
      }
    }
    var problems: [String] = []
    if missing > 0 { problems.append(plural(missing, "expected event did not happen", "expected events did not happen")) }
    if unexpected > 0 { problems.append(plural(unexpected, "unexpected event happened", "unexpected events happened")) }
    var header = "The stream does not match the expected events: " + problems.joined(separator: ", ")
    if mode != .on { header += " in this order (exhaustivity is off: the events in between are not checked)" }
    let footer = unexpected > 0
      ? "Exhaustivity is on: expect every event, narrow what is checked (kinds:, stores:), or turn exhaustivity off."
      : nil
    return diff.message(header + ".", footer: footer)
  }
}
