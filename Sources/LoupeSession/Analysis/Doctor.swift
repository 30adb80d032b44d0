import LoupeCore

/// Finds the known pitfalls in a trace, in one pass and bounded memory (CONTRACT §8):
///
/// - **effects never finished or cancelled** by the end of the trace (and effects that
///   outlived their store);
/// - **effects cancelled from another store**: an `effect.cancelled` (`cancel` or
///   `cancelInFlight`) whose `by.store` is not the effect's own store (seed 000: one page's
///   store cancels another page's timer). Effects ended with their identity or store are not;
/// - **derived values recomputed with unchanged output**, a problem: a value recomputed for
///   (nearly) every action of its store — not memoized, so every action pays for it — with at
///   least 2 such recomputations, a quarter of all of them. A memoized value recomputes only
///   when its input changed; the output staying the same then is normal, and only when it
///   does for at least half of its recomputations is it reported, as a note (its input is
///   wider than what it reads);
/// - **identity churn**: a store id whose identity was replaced 2 or more times while it was
///   live — by a `replaced` identity change, or ended and begun again by one action (each
///   new identity starts from fresh state and ends the old one's effects, as in seed 002).
///   Presenting a child again after it was dismissed is its normal lifetime, not churn;
/// - **runtime warnings**, such as actions sent to ended stores;
/// - **dropped events**: the trace is incomplete.
///
/// Where the trace has source locations (CONTRACT §9), findings name the lines: the line that
/// created an effect, the `.cancel(id:)` or `.cancellable(id:cancelInFlight:)` (a `.debounce`
/// is one too) that cancelled it, the line behind a warning.
package struct Doctor {
  struct RunningEffect {
    var store: String
    var cancelID: String?
    var startSeq: Int
    var startedBy: String?
    var source: CodeLocation?
  }

  /// Cross-store cancellations are grouped by cancel id: the shared id is the cause.
  private struct CrossStoreKey: Hashable {
    var cancelID: String?
  }

  private struct CrossStoreExample {
    var store: String
    var by: String
    var effect: Int
    var started: Int?
    var startedBy: String?
    var cancelSeq: Int
    var cause: Int
    var causeAction: String?
    var reason: EffectCancelled.Reason
    /// The line that created the effect, and the line that cancelled it.
    var startedAt: CodeLocation?
    var cancelledAt: CodeLocation?
  }

  private struct DerivedKey: Hashable, Comparable {
    var store: String
    var derived: String
    static func < (a: DerivedKey, b: DerivedKey) -> Bool { (a.derived, a.store) < (b.derived, b.store) }
  }

  private struct DerivedRow {
    var recomputed = 0
    var unchanged = Examples<Int>(limit: 8)
    /// How many actions its store had received when the value was first computed.
    var actionsBefore = 0
  }

  struct IdentityRow {
    /// The identities that replaced a live one.
    var replacements = Examples<(seq: Int, reason: String, identity: String)>(limit: 8)
    var first: (seq: Int, identity: String)?
    /// The action being handled when the store's last identity ended (dismissed or removed).
    var endedDuring: Int?
  }

  private var actions = RecentActions()
  /// Actions received per store (a derived value recomputed for nearly all of them is not memoized).
  private var actionCounts: [String: Int] = [:]
  /// The `seq` of the latest `action.received`: what the events that follow are handling.
  var currentAction: Int?
  var running: [Int: RunningEffect] = [:]
  private var destroyed: [String: Int] = [:]
  private var crossStore: [CrossStoreKey: Examples<CrossStoreExample>] = [:]
  private var crossStoreOrder: [CrossStoreKey] = []
  private var derived: [DerivedKey: DerivedRow] = [:]
  var identities: [String: IdentityRow] = [:]
  private var warnings: [String: Examples<(seq: Int, store: String?, message: String, source: CodeLocation?)>] = [:]
  private var dropped = Examples<(seq: Int, count: Int)>(limit: 10)
  private var droppedTotal = 0
  /// What tools did (CONTRACT §16): actions with origin `tool`, states set (their marks).
  private var toolActs = Examples<(seq: Int, what: String)>(limit: 10)
  package private(set) var events = 0
  package private(set) var lastSeq: Int?

  package init() {}

  /// Every code a finding can have (`warning-CODE` for runtime warnings the doctor has no
  /// finding of its own for).
  package static let codes = [
    "effect-cancelled-by-another-store", "effect-outlived-store", "effect-never-ended", "identity-churn",
    "derived-unchanged-output", "derived-wide-input", "send-to-ended-store", "dropped-events", "acted-on-by-tool",
    "warning-CODE",
  ]

  /// Whether `code` names a finding (for `--ignore`).
  package static func isKnownCode(_ code: String) -> Bool {
    codes.contains(code) || (code.hasPrefix("warning-") && code.count > "warning-".count)
  }

  /// Replacements of a live identity that make churn.
  static package let identityChurnThreshold = 2

  /// Whether a cancellation reached across stores: a cancel id of another store's action
  /// (`cancel` or `cancelInFlight`), the pitfall of seed 000. Ending a child's identity or
  /// destroying a store cancels its effects on purpose (the parent's action is then `by`).
  package static func isCrossStoreCancellation(_ e: EffectCancelled) -> Bool {
    guard let by = e.by else { return false }
    return by.store != e.store && (e.reason == .cancel || e.reason == .cancelInFlight)
  }

  static package let unchangedThreshold = 2
  /// The share of its store's actions a derived value must recompute for to count as not memoized.
  static package let unmemoizedShare = 0.75

  /// Reads the rest of `reader` (what `loupe doctor` does; the MCP tool `loupe_doctor` adds the session's events as they come).
  package static func examine(_ reader: TraceReader, progress: (any ReadProgress)? = nil) throws(CommandFailure) -> Doctor {
    var doctor = Doctor()
    // State changes (the bulk of most traces) matter to no check: they are counted, not decoded.
    while let item = try reader.nextItem(decode: false) {
      if item.kind == StateChanged.kind {
        doctor.skip(seq: item.seq)
      } else if let event = item.event ?? (try? Event(jsonText: item.bytes)) {
        doctor.add(event)
      }
      progress?.update(reader.bytesRead)
    }
    return doctor
  }

  /// Counts an event that no check needs (a `state.changed`).
  mutating package func skip(seq: Int) {
    events += 1
    lastSeq = seq
  }

  mutating package func add(_ event: Event) {
    events += 1
    lastSeq = event.seq
    switch event.payload {
    case .actionReceived(let e):
      actions.record(seq: event.seq, label: e.action)
      actionCounts[e.store, default: 0] += 1
      currentAction = event.seq
      if e.origin == .tool {
        toolActs.add((event.seq, "\(e.action) sent to \(e.store) by \(e.client ?? "an unnamed client")"))
      }
    case .effectStarted(let e):
      running[e.effect] = RunningEffect(
        store: e.store, cancelID: e.cancelID, startSeq: event.seq, startedBy: actions[e.cause], source: e.source?.withoutPath)
    case .effectFinished(let e):
      running[e.effect] = nil
    case .effectCancelled(let e):
      let started = running.removeValue(forKey: e.effect)
      // Ending a child's identity or destroying a store cancels its effects on purpose (the
      // parent's action is then `by`); only cancel ids reaching across stores are the pitfall.
      guard Self.isCrossStoreCancellation(e), let by = e.by else { break }
      let key = CrossStoreKey(cancelID: e.cancelID)
      if crossStore[key] == nil { crossStoreOrder.append(key) }
      crossStore[key, default: Examples()].add(
        CrossStoreExample(
          store: e.store, by: by.store, effect: e.effect, started: started?.startSeq, startedBy: started?.startedBy, cancelSeq: event.seq,
          cause: by.cause, causeAction: actions[by.cause], reason: e.reason, startedAt: started?.source,
          cancelledAt: by.source?.withoutPath))
    case .storeCreated(let e):
      destroyed[e.store] = nil
    case .storeDestroyed(let e):
      destroyed[e.store] = event.seq
    case .derivedRecomputed(let e):
      let key = DerivedKey(store: e.store, derived: e.derived)
      if derived[key] == nil { derived[key] = DerivedRow(actionsBefore: actionCounts[e.store, default: 0]) }
      derived[key]!.recomputed += 1
      if !e.outputChanged { derived[key]!.unchanged.add(event.seq) }
    case .identityChanged(let e):
      var row = identities[e.store, default: IdentityRow()]
      switch e.reason {
      case .created, .presented, .inserted, .replaced:
        if isReplacement(e, row: row) {
          row.replacements.add((event.seq, e.reason.rawValue, e.identity))
        } else if row.first == nil {
          row.first = (event.seq, e.identity)
        }
        row.endedDuring = nil
      case .dismissed, .removed:
        row.endedDuring = currentAction ?? -1
      }
      identities[e.store] = row
    case .warning(let e):
      warnings[e.code, default: Examples(limit: 10)].add((event.seq, e.store, e.message, e.source?.withoutPath))
    case .dropped(let e):
      dropped.add((event.seq, e.count))
      droppedTotal += e.count
    case .mark(let e):
      if let set = ToolActs.stateSet(by: e.label) { toolActs.add((event.seq, set)) }
    case .sessionStarted, .stateChanged, .stateSnapshot, .unknown:
      break
    }
  }

  /// What was found, most serious first: problems, then notes.
  package func findings() -> [Finding] {
    let all = unsortedFindings()
    return all.filter { $0.severity == .problem } + all.filter { $0.severity == .note }
  }

  private func unsortedFindings() -> [Finding] {
    var findings: [Finding] = []
    findings += crossStoreFindings()
    findings += runningEffectFindings()
    findings += identityFindings()
    findings += derivedFindings()
    findings += warningFindings()
    if toolActs.count > 0 { findings.append(ToolActs.finding(toolActs)) }
    if droppedTotal > 0 {
      let seqs = dropped.items.map(\.seq)
      findings.append(
        Finding(
          code: "dropped-events",
          title: "Events were dropped",
          details: [
            "\(Formatting.plural(droppedTotal, "event")) never reached this trace (reported at \(seqs.map { "#\($0)" }.joined(separator: ", "))\(dropped.more)). Counts and findings above may be incomplete."
          ],
          why: "The program drops events rather than slow down when a client reads too slowly or its buffer is full.",
          fix: "Record with LOUPE_RECORD=FILE (written by the program itself) or 'loupe record', and filter on the server side (--kind, --store) to send fewer events.",
          seqs: seqs))
    }
    return findings
  }

  private func crossStoreFindings() -> [Finding] {
    crossStoreOrder.map { key in
      let examples = crossStore[key]!
      let id = key.cancelID.map { "cancel id \"\($0)\"" } ?? "no cancel id"
      var details: [String] = []
      for example in examples.items {
        var sentence = "Effect \(example.effect) of \(example.store) (\(id)"
        if let started = example.started {
          sentence += ", started at #\(started)\(example.startedBy.map { " by \($0)" } ?? "")"
        }
        sentence += ") was cancelled at #\(example.cancelSeq) (\(example.reason.rawValue)) by \(example.by) handling #\(example.cause)"
        sentence += example.causeAction.map { " \($0)." } ?? "."
        if let lines = Self.lines(started: example.startedAt, cancelled: example.cancelledAt, reason: example.reason, id: key.cancelID) {
          sentence += " " + lines
        }
        details.append(sentence)
      }
      if examples.count > examples.items.count {
        details.append("This happened \(Formatting.count(examples.count)) times in all.")
      }
      var seqs: [Int] = []
      for example in examples.items {
        if let started = example.started { seqs.append(started) }
        seqs += [example.cause, example.cancelSeq]
      }
      return Finding(
        code: "effect-cancelled-by-another-store",
        title: "Effect cancelled by another store",
        details: details,
        why: "The cancel id \(key.cancelID.map { "\"\($0)\" " } ?? "")is shared across stores (a process-wide cancellation scope, as in TCA): when one store cancels it, the effects other stores started with the same id stop too. A page's timer stops when you swipe to the next page.",
        fix: "Keep cancel ids per store (Loupe's default, CancellationScope.isolated), make the id unique per store by including the element's id (.cancellable(id: TimerID(page: id))), or run the stores as children of one parent store (forEach / scope) so each child's effects are its own.",
        seqs: Array(Set(seqs).sorted().prefix(Finding.maximumSeqs)))
    }
  }

  /// "The timer started at PageFeature.swift:46 was cancelled by the
  /// `.cancellable(id:cancelInFlight:)` at PageFeature.swift:51 in another store." — when the
  /// trace has the lines.
  private static func lines(started: CodeLocation?, cancelled: CodeLocation?, reason: EffectCancelled.Reason, id: String?) -> String? {
    guard started != nil || cancelled != nil else { return nil }
    let name = id.flatMap { $0.split(separator: ".").last }.map { "The \($0)" } ?? "The effect"
    var text = name + (started.map { " started at \($0.shortDescription)" } ?? "") + " was cancelled by "
    let call = reason == .cancel ? "`.cancel(id:)`" : "`.cancellable(id:cancelInFlight:)`"
    text += cancelled.map { "the \(call) at \($0.shortDescription)" } ?? "a \(call)"
    return text + " in another store."
  }

  private func runningEffectFindings() -> [Finding] {
    guard !running.isEmpty else { return [] }
    var outlived = Examples<(Int, RunningEffect, Int)>(limit: 5)
    var open = Examples<(Int, RunningEffect)>(limit: 5)
    for (effect, info) in running.sorted(by: { $0.value.startSeq < $1.value.startSeq }) {
      if let end = destroyed[info.store], end > info.startSeq {
        outlived.add((effect, info, end))
      } else {
        open.add((effect, info))
      }
    }
    func describe(_ effect: Int, _ info: RunningEffect) -> String {
      var text = "effect \(effect) of \(info.store)"
      if let id = info.cancelID { text += " (cancel id \"\(id)\")" }
      text += ", started at #\(info.startSeq)"
      if let by = info.startedBy { text += " by \(by)" }
      if let source = info.source { text += ", created at \(source.shortDescription)" }
      return text
    }
    var findings: [Finding] = []
    if outlived.count > 0 {
      findings.append(
        Finding(
          code: "effect-outlived-store",
          title: "Effect outlived its store",
          details: outlived.items.map { effect, info, end in
            "The store of " + describe(effect, info) + " was destroyed at #\(end); the effect was never cancelled."
          } + (outlived.count > outlived.items.count ? ["\(Formatting.count(outlived.count)) such effects in all."] : []),
          why: "An effect that keeps running after its store is gone does work nobody will see, and may send actions to an ended store.",
          fix: "Make long-running effects cancellable and cancel them when the feature goes away (e.g. on disappear), or run them with the store's lifetime (.task / scoped child stores cancel their effects on removal).",
          seqs: outlived.items.flatMap { [$0.1.startSeq, $0.2] }.sorted()))
    }
    if open.count > 0 {
      findings.append(
        Finding(
          code: "effect-never-ended",
          title: "Effects never finished or cancelled",
          details: [
            "\(Formatting.plural(open.count, "effect was", "effects were")) still running when the trace ended\(lastSeq.map { " at #\($0)" } ?? ""):"
          ] + open.items.map { "- " + describe($0.0, $0.1) + "." } + (open.count > open.items.count ? ["- …\(open.more)"] : []),
          why: "An effect that never ends holds resources and keeps sending actions; leaked timers and subscriptions are the usual cause. If the program was still running when the recording stopped and the effect is meant to live as long as it, this is expected.",
          fix: "Give long-running effects a cancel id and cancel them when their feature goes away, or tie them to the feature's lifetime.",
          seqs: open.items.map(\.1.startSeq)))
    }
    return findings
  }

  private func identityFindings() -> [Finding] {
    identities.filter { $0.value.replacements.count >= Self.identityChurnThreshold }.sorted { $0.key < $1.key }.map { store, row in
      let steps = row.replacements.items.map { "#\($0.seq) \($0.reason) \($0.identity)" }.joined(separator: ", ")
      let first = row.first.map { " began as \($0.identity) (#\($0.seq)) and" } ?? ""
      return Finding(
        code: "identity-churn",
        title: "Identity churn",
        details: [
          "\(store)\(first) was given a new identity \(Formatting.plural(row.replacements.count, "time")) while shown: \(steps)\(row.replacements.more)."
        ],
        why: "Each new identity starts from fresh state and ends the effects of the old one, so state the user expects to keep is reset (like SwiftUI @State when a view's identity changes).",
        fix: "Give the store a stable identity: a persistent id rather than one made each time (UUID() in a view, a changing .id()), and keep state that must survive in the parent. If the feature is meant to start over each time (an enum case switched on purpose), this is expected.",
        seqs: row.replacements.items.map(\.seq))
    }
  }

  private func derivedFindings() -> [Finding] {
    derived.sorted { $0.key < $1.key }.compactMap { key, row in
      guard row.unchanged.count >= Self.unchangedThreshold else { return nil }
      // The first computation comes with the value's creation, not with an action.
      let actions = actionCounts[key.store, default: 0] - row.actionsBefore
      let unmemoized = actions > 0 && Double(row.recomputed - 1) >= Self.unmemoizedShare * Double(actions)
      let counts = "\(key.derived) in \(key.store) was recomputed \(Formatting.plural(row.recomputed, "time"))"
        + (unmemoized ? " (for \(Formatting.count(row.recomputed - 1)) of its store's \(Formatting.plural(actions, "action")))" : "")
        + ", \(Formatting.count(row.unchanged.count)) of them with the same output as before (at \(row.unchanged.items.map { "#\($0)" }.joined(separator: ", "))\(row.unchanged.more))."
      if unmemoized, row.unchanged.count * 4 >= row.recomputed {
        return Finding(
          code: "derived-unchanged-output",
          title: "Derived value recomputed with unchanged output",
          details: [counts],
          why: "It is recomputed after (nearly) every action, whatever changed: it is not memoized, so every action pays for it, mostly for nothing.",
          fix: "Memoize it on the state it reads: store.derived(\"\(key.derived)\", select: \\.theStateItReads) { … } instead of store.map, so unrelated changes do not recompute it.",
          seqs: row.unchanged.items)
      }
      if !unmemoized, row.unchanged.count * 2 >= row.recomputed {
        return Finding(
          code: "derived-wide-input",
          title: "Memoized derived value whose input is wider than its output",
          details: [counts],
          why: "It is memoized and recomputes only when its input changes, but most of those changes do not affect its output: the input holds more than the computation reads.",
          fix: "If the computation is expensive, select only the fields it reads, so other changes do not recompute it. If it is cheap, this is fine: --ignore derived-wide-input.",
          seqs: row.unchanged.items, severity: .note)
      }
      return nil
    }
  }

  private func warningFindings() -> [Finding] {
    warnings.sorted { $0.key < $1.key }.map { code, examples in
      let details = examples.items.map {
        "#\($0.seq)\($0.store.map { " \($0)" } ?? "")\($0.source.map { " at \($0.shortDescription)" } ?? ""): \($0.message)"
      }
        + (examples.count > examples.items.count ? ["\(Formatting.count(examples.count)) in all."] : [])
      if code == "sendToEndedStore" {
        return Finding(
          code: "send-to-ended-store",
          title: "Actions sent to ended stores",
          details: details,
          why: "The store's identity had ended, so the action was ignored: a view or an effect still holds the old store.",
          fix: "Cancel the effects of a feature when it goes away, and do not keep scoped stores beyond their element's lifetime.",
          seqs: examples.items.map(\.seq))
      }
      return Finding(
        code: "warning-\(code)",
        title: "Runtime warning: \(code)",
        details: details,
        why: "The runtime noticed a misuse it survived.",
        fix: "See the message for what went wrong.",
        seqs: examples.items.map(\.seq))
    }
  }
}
