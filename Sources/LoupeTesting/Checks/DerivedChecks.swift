extension DiagnosticStream {
  /// Asserts that the derived value `name` was recomputed at most `limit` times, not
  /// counting its first computation (the one with no cause).
  ///
  /// ```swift
  /// let visible = store.derived("visibleTodos", select: \.todos) { $0.filter { !$0.isDone } }
  /// store.send(.titleEdited(id: 1, "Milk"))
  /// recorder.assertDerived("visibleTodos", recomputedAtMost: 1)
  /// ```
  ///
  /// - Parameters:
  ///   - name: The derived value's name (a pattern; each matching value is checked on its own).
  ///   - store: The store it derives from (a pattern).
  ///   - limit: The most recomputations allowed.
  public func assertDerived(
    _ name: String, store: String? = nil, recomputedAtMost limit: Int,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let events = self.events
    guard let groups = derivedGroups(name, store: store, in: events, at: site) else { return }
    let actions = EffectLedger(events)
    for group in groups {
      let recomputations = group.events.filter { $0.info.cause != nil }
      guard recomputations.count > limit else { continue }
      var rows = StoryRows()
      for (index, entry) in recomputations.enumerated() {
        if let cause = entry.info.cause.flatMap(actions.actionLine) { rows.context(seq: cause.seq, cause.text) }
        if index < limit { rows.context(entry.event) } else { rows.actual(entry.event) }
      }
      let header = "The derived value \(group.name) of \(group.store) was recomputed "
        + "\(plural(recomputations.count, "time", "times")); at most \(limit) \(limit == 1 ? "was" : "were") expected."
      FailureReporter.fail(rows.diff.message(header), at: site)
    }
  }

  /// Asserts that no derived value (or only `name`, a pattern) was recomputed with an
  /// unchanged output: work that memoizing on its input would have saved.
  ///
  /// A value made with `store.map(_:_:)` computes after every action; one made with
  /// `store.derived(_:select:compute:)` only when its selected input changes.
  public func assertNoWastedRecomputation(
    _ name: String? = nil, store: String? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let events = self.events
    guard let groups = derivedGroups(name ?? "*", store: store, in: events, at: site, required: name != nil) else { return }
    let actions = EffectLedger(events)
    var rows = StoryRows()
    var wasted: [(group: DerivedGroup, count: Int)] = []
    for group in groups {
      let unchanged = group.events.filter { !$0.info.outputChanged }
      guard !unchanged.isEmpty else { continue }
      wasted.append((group, unchanged.count))
      for entry in unchanged {
        if let cause = entry.info.cause.flatMap(actions.actionLine) { rows.context(seq: cause.seq, cause.text) }
        rows.actual(entry.event)
      }
    }
    guard !wasted.isEmpty else { return }
    let header = wasted.count == 1
      ? "The derived value \(wasted[0].group.name) of \(wasted[0].group.store) was recomputed "
        + "\(plural(wasted[0].count, "time", "times")) with an unchanged output."
      : "Derived values were recomputed with an unchanged output: "
        + wasted.map { "\($0.group.name) of \($0.group.store) \(plural($0.count, "time", "times"))" }.joined(separator: ", ") + "."
    let footer = "Memoize it on its input: store.derived(_:select:compute:) computes again only when the selected input changes."
    FailureReporter.fail(rows.diff.message(header, footer: footer), at: site)
  }

  struct DerivedGroup {
    let store: String
    let name: String
    var events: [(event: Event, info: DerivedRecomputed)] = []
  }

  /// The `derived.recomputed` events of the values matching `name` and `store`, by value.
  /// Reports a failure and returns `nil` when `required` and none matches.
  private func derivedGroups(
    _ name: String, store: String?, in events: [Event], at site: CallSite, required: Bool = true
  ) -> [DerivedGroup]? {
    let nameGlob = Glob(name)
    let storeGlob = store.map(Glob.init)
    var groups: [DerivedGroup] = []
    for event in events {
      guard case .derivedRecomputed(let info) = event.payload, nameGlob.matches(info.derived),
        storeGlob?.matches(info.store) ?? true
      else { continue }
      if let index = groups.firstIndex(where: { $0.store == info.store && $0.name == info.derived }) {
        groups[index].events.append((event, info))
      } else {
        groups.append(DerivedGroup(store: info.store, name: info.derived, events: [(event, info)]))
      }
    }
    if groups.isEmpty && required {
      let known = Set(events.compactMap { $0.payload.derivedRecomputed.map { "\($0.derived) of \($0.store)" } }).sorted()
      let subject = "derived value \(name)" + (store.map { " of \($0)" } ?? "")
      FailureReporter.fail(
        "No \(subject) was ever computed; "
          + (known.isEmpty
            ? "the stream has no derived.recomputed events." : "the stream's derived values are \(known.joined(separator: ", ")).")
          + " Derived values report only while a sink is attached: create them after the recorder, on a store made with its bus.",
        at: site)
      return nil
    }
    return groups
  }
}
