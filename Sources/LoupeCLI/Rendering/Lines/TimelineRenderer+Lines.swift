import LoupeCore

/// The timeline (`--format text`) written straight from a trace line's bytes: the same text
/// as decoding the line and calling ``TimelineRenderer/render(_:format:shown:)``, without
/// building an ``Event``, a ``JSON`` tree or a `String` per piece (issue 18: `show` text).
///
/// It covers the kinds and forms a trace is made of — actions, state changes with plain
/// values, effects, derived values, stores created, marks — and declines the rest: it returns
/// `false`, having written and noted nothing, for any line it cannot be sure to render
/// exactly as decoding would, including every line decoding would reject. The caller then
/// decodes that line and renders the ``Event``. `TimelineLinesTests` compares the two on
/// fixtures and generated adversarial lines.
extension TimelineRenderer {
  /// Renders the event in `line` (one JSON object, already checked by the reader) to `out`
  /// when `shown`, and notes what later events need; `false` when the line must be decoded.
  mutating func renderTimeline(line: UnsafeBufferPointer<UInt8>, shown: Bool, to out: inout TextBytes) -> Bool {
    guard let json = JSONLine(line) else { return false }
    let mark = out.count
    let rendered = EventMembers.with { top in
      EventMembers.with { inner in
        renderTimeline(json, top: &top, inner: &inner, shown: shown, to: &out)
      }
    }
    if !rendered || !shown { out.truncate(to: mark) }
    return rendered
  }

  /// The `summary` of a `state.changed` line that ``renderTimeline(line:shown:to:)`` took (the
  /// `--format changes` line), else `nil`.
  static func stateChangeSummary(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
    guard let json = JSONLine(line) else { return nil }
    return EventMembers.with { members in
      guard members.read(json), let kind = json.plainString(members[.kind]), JSONLine.equal(kind, "state.changed") else { return nil }
      return json.plainString(members[.summary])
    }
  }

  private enum LineKind {
    case actionReceived, stateChanged, effectStarted, effectFinished, effectCancelled, derivedRecomputed
    case storeCreated, storeDestroyed, identityChanged, mark

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
      switch bytes.count {
      case 15 where JSONLine.equal(bytes, "action.received"): self = .actionReceived
      case 13 where JSONLine.equal(bytes, "state.changed"): self = .stateChanged
      case 14 where JSONLine.equal(bytes, "effect.started"): self = .effectStarted
      case 15 where JSONLine.equal(bytes, "effect.finished"): self = .effectFinished
      case 16 where JSONLine.equal(bytes, "effect.cancelled"): self = .effectCancelled
      case 18 where JSONLine.equal(bytes, "derived.recomputed"): self = .derivedRecomputed
      case 13 where JSONLine.equal(bytes, "store.created"): self = .storeCreated
      case 15 where JSONLine.equal(bytes, "store.destroyed"): self = .storeDestroyed
      case 16 where JSONLine.equal(bytes, "identity.changed"): self = .identityChanged
      case 4 where JSONLine.equal(bytes, "mark"): self = .mark
      default: return nil
      }
    }

    /// The kind column's colour (``TimelineRenderer``'s `color(for:_:)`).
    var colour: Style.Code {
      switch self {
      case .actionReceived: .cyan
      case .stateChanged: .yellow
      case .effectStarted, .effectFinished, .effectCancelled: .magenta
      case .storeCreated, .storeDestroyed, .identityChanged: .blue
      case .derivedRecomputed: .green
      case .mark: .bold
      }
    }
  }

  /// What a rendered line asks to be noted once it is sure to be rendered.
  private enum Note {
    case none
    case action(seq: Int, label: Range<Int>)
    case effectStarted(effect: Int, time: Double, cause: Int)
    case effectEnded(effect: Int)
  }

  private mutating func renderTimeline(
    _ line: JSONLine, top: inout EventMembers, inner: inout EventMembers, shown: Bool, to out: inout TextBytes
  ) -> Bool {
    guard top.read(line), let kindBytes = line.plainString(top[.kind]), let kind = LineKind(kindBytes),
      let seq = line.plainInt(top[.seq]), let time = line.double(top[.time])
    else { return false }
    // Header: time, seq, kind, store.
    guard appendHeader(time: time, seq: seq, to: &out) else { return false }
    out.append("  ")
    out.open(kind.colour, style)
    out.append(kindBytes)
    out.append(spaces: Self.kindWidth &- kindBytes.count)
    out.close(style)
    if kind != .mark {
      guard let store = line.plainString(top[.store]) else { return false }
      out.append("  ")
      out.open(.bold, style)
      out.append(store)
      out.close(style)
    }
    // Details, after two spaces unless there are none.
    out.append("  ")
    let detailsStart = out.count
    // Whether the line break is written (before a state change's −/+ lines).
    var ended = false
    let note: Note
    switch kind {
    case .actionReceived:
      guard let noted = actionDetails(line, top, &inner, seq: seq, to: &out) else { return false }
      note = noted
    case .stateChanged:
      guard line.plainInt(top[.cause]) != nil, let summary = line.plainString(top[.summary]) else { return false }
      if summary.isEmpty { out.truncate(to: detailsStart &- 2) } else { out.append(summary) }
      out.append(byte: 0x0A)
      ended = true
      guard changeLines(line, top[.changes], &inner, to: &out) else { return false }
      note = .none
    case .effectStarted:
      guard let noted = effectStartedDetails(line, top, &inner, time: time, to: &out) else { return false }
      note = noted
    case .effectFinished:
      guard let noted = effectFinishedDetails(line, top, time: time, to: &out) else { return false }
      note = noted
    case .effectCancelled:
      guard let noted = effectCancelledDetails(line, top, &inner, time: time, to: &out) else { return false }
      note = noted
    case .derivedRecomputed:
      guard derivedDetails(line, top, &inner, to: &out) else { return false }
      note = .none
    case .storeCreated:
      guard storeCreatedDetails(line, top, to: &out) else { return false }
      note = .none
    case .storeDestroyed:
      guard let store = line.plainString(top[.store]), let identity = line.plainString(top[.identity]),
        JSONLine.isASCII(identity), JSONLine.isASCII(store)
      else { return false }
      if !JSONLine.equal(identity, store) {
        out.append("identity ")
        out.append(identity)
      }
      note = .none
    case .identityChanged:
      guard identityChangedDetails(line, top, to: &out) else { return false }
      note = .none
    case .mark:
      guard let label = line.plainString(top[.label]) else { return false }
      out.open(.bold, style)
      out.append("── ")
      out.append(label)
      out.append(" ──")
      out.close(style)
      note = .none
    }
    if !ended {
      if out.count == detailsStart { out.truncate(to: detailsStart &- 2) }
      out.append(byte: 0x0A)
    }
    // Sure now: note what later events need.
    switch note {
    case .none: break
    case .action(let seq, let label):
      actions.record(seq: seq, label: String(decoding: line.bytes(label), as: UTF8.self))
    case .effectStarted(let effect, let time, let cause):
      runningEffects[effect] = (time, cause)
    case .effectEnded(let effect):
      runningEffects[effect] = nil
    }
    return true
  }

  /// ``TimelineHeader/append(time:seq:style:to:)``, in bytes.
  private func appendHeader(time: Double, seq: Int, to out: inout TextBytes) -> Bool {
    guard let micros = Formatting.wholeMicroseconds(time) else { return false }
    out.open(.dim, style)
    let whole = abs(micros) / 1000
    let fraction = abs(micros) % 1000
    let timeLength = (micros < 0 ? 1 : 0) &+ TextBytes.decimalLength(whole) &+ 6
    out.append(spaces: TimelineHeader.timeWidth &- timeLength)
    if micros < 0 { out.append("-") }
    out.append(int: whole)
    out.append(fraction < 10 ? ".00" : fraction < 100 ? ".0" : ".")
    out.append(int: fraction)
    out.append("ms ")
    out.append(spaces: TimelineHeader.seqWidth &- 1 &- TextBytes.decimalLength(seq))
    out.append("#")
    out.append(int: seq)
    out.close(style)
    return true
  }

  // MARK: - Kinds

  private func actionDetails(
    _ line: JSONLine, _ top: EventMembers, _ inner: inout EventMembers, seq: Int, to out: inout TextBytes
  ) -> Note? {
    let labelValue = top[.action]
    guard let label = line.plainString(labelValue), top[.shape].isNone else { return nil }
    let effect: Int?
    switch top[.effect] {
    case let value where value.isNone: effect = nil
    case let value:
      guard let int = line.plainInt(value) else { return nil }
      effect = int
    }
    let origin = line.plainString(top[.origin])
    guard let origin else { return nil }
    out.open(.cyan, style)
    out.append(label)
    out.close(style)
    guard appendActionPayload(line, label: label, value: top[.value], to: &out) else { return nil }
    if JSONLine.equal(origin, "send") {
    } else if JSONLine.equal(origin, "parent") {
      out.open(.dim, style)
      out.append(" (from parent)")
      out.close(style)
    } else if JSONLine.equal(origin, "effect") {
      out.open(.dim, style)
      if let effect {
        out.append(" (from effect ")
        out.append(int: effect)
        out.append(")")
      } else {
        out.append(" (from an effect)")
      }
      out.close(style)
    } else {
      return nil
    }
    guard appendLocation(line, top[.source], &inner, to: &out) else { return nil }
    return .action(seq: seq, label: labelValue.range)
  }

  /// ``ActionText/payload(label:value:shape:maxLength:)`` with no shape, dim.
  private func appendActionPayload(_ line: JSONLine, label: UnsafeBufferPointer<UInt8>, value: JSONLine.Value, to out: inout TextBytes) -> Bool {
    guard JSONLine.isASCII(label) else { return false }
    let caseName = label.lastIndex(of: JSONLine.Byte.dot).map { UnsafeBufferPointer(rebasing: label[($0 + 1)...]) } ?? label
    switch value.kind {
    case .absent, .null:
      return true
    case .escapedString:
      return false
    case .string:
      let name = line.bytes(value)
      guard JSONLine.isASCII(name) else { return false }
      if JSONLine.equal(name, caseName) || JSONLine.equal(name, label) { return true }
    case .object:
      var members = line.members(of: value)
      if let only = members.next(), members.next() == nil, !members.failed {
        if only.keyEscaped { return false }
        let key = line.bytes(only.key)
        guard JSONLine.isASCII(key) else { return false }
        if JSONLine.equal(key, caseName) {
          out.open(.dim, style)
          out.append("(")
          guard RawValueText.append(only.value, in: line, limit: 120, to: &out) else { return false }
          out.append(")")
          out.close(style)
          return true
        }
      }
      if members.failed { return false }
    default:
      break
    }
    out.open(.dim, style)
    out.append(" ")
    guard RawValueText.append(value, in: line, limit: 120, to: &out) else { return false }
    out.close(style)
    return true
  }

  private func effectStartedDetails(
    _ line: JSONLine, _ top: EventMembers, _ inner: inout EventMembers, time: Double, to out: inout TextBytes
  ) -> Note? {
    guard let effect = line.plainInt(top[.effect]), let cause = line.plainInt(top[.cause]) else { return nil }
    let cancelID = top[.cancelID]
    guard cancelID.isNone || cancelID.kind == .string else { return nil }
    out.append("effect ")
    out.append(int: effect)
    if cancelID.kind == .string {
      out.append(", cancel id \"")
      out.append(line.bytes(cancelID))
      out.append("\"")
    }
    appendCause(cause, to: &out)
    guard appendLocation(line, top[.source], &inner, to: &out) else { return nil }
    return .effectStarted(effect: effect, time: time, cause: cause)
  }

  /// ` (from #5 PageFeature.Action.startTapped)`, dim.
  private func appendCause(_ cause: Int, to out: inout TextBytes) {
    out.open(.dim, style)
    out.append(" (from ")
    appendCauseReference(cause, to: &out)
    out.append(")")
    out.close(style)
  }

  /// `#5 PageFeature.Action.startTapped`: a cause, and its action's label when it is known.
  private func appendCauseReference(_ cause: Int, to out: inout TextBytes) {
    out.append("#")
    out.append(int: cause)
    if let label = actions[cause] {
      out.append(" ")
      out.append(string: label)
    }
  }

  private func effectFinishedDetails(_ line: JSONLine, _ top: EventMembers, time: Double, to out: inout TextBytes) -> Note? {
    guard let effect = line.plainInt(top[.effect]), let outcome = line.plainString(top[.outcome]),
      JSONLine.equal(outcome, "completed") || JSONLine.equal(outcome, "failed")
    else { return nil }
    let error = top[.error]
    guard error.isNone || error.kind == .string else { return nil }
    out.append("effect ")
    out.append(int: effect)
    out.append(" ")
    out.append(outcome)
    appendRan(effect, until: time, to: &out)
    if error.kind == .string {
      out.append(": ")
      out.open(.red, style)
      out.append(line.bytes(error))
      out.close(style)
    }
    return .effectEnded(effect: effect)
  }

  private func appendRan(_ effect: Int, until time: Double, to out: inout TextBytes) {
    guard let start = runningEffects[effect] else { return }
    out.append(" after ")
    out.append(string: Formatting.duration(milliseconds: time - start.time))
  }

  private func effectCancelledDetails(
    _ line: JSONLine, _ top: EventMembers, _ inner: inout EventMembers, time: Double, to out: inout TextBytes
  ) -> Note? {
    guard let effect = line.plainInt(top[.effect]), let store = line.plainString(top[.store]),
      let reason = line.plainString(top[.reason])
    else { return nil }
    let cancelID = top[.cancelID]
    guard cancelID.isNone || cancelID.kind == .string else { return nil }
    let byCancel = JSONLine.equal(reason, "cancel") || JSONLine.equal(reason, "cancelInFlight")
    guard byCancel || JSONLine.equal(reason, "storeDestroyed") || JSONLine.equal(reason, "identityEnded") else { return nil }
    out.append("effect ")
    out.append(int: effect)
    out.append(" cancelled")
    appendRan(effect, until: time, to: &out)
    out.append(": ")
    out.append(reason)
    let by = top[.by]
    if by.kind == .object {
      guard inner.read(line, object: by), let byStore = line.plainString(inner[.store]), let cause = line.plainInt(inner[.cause])
      else { return nil }
      let source = inner[.source]
      out.append(" by ")
      out.append(byStore)
      out.append(" (")
      appendCauseReference(cause, to: &out)
      out.append(")")
      if !source.isNone {
        guard let location = readLocation(line, source, &inner) else { return nil }
        out.append(" at ")
        out.open(.dim, style)
        appendShortLocation(line, location, to: &out)
        out.close(style)
      }
      if byCancel {
        // `by.store != e.store` compares strings: byte for byte when both are ASCII.
        guard JSONLine.isASCII(byStore), JSONLine.isASCII(store) else { return nil }
        if !JSONLine.equal(byStore, store) {
          out.append(" ")
          out.open(.boldRed, style)
          out.append("— another store")
          out.close(style)
        }
      }
    } else if !by.isNone {
      return nil
    }
    return .effectEnded(effect: effect)
  }

  private func derivedDetails(_ line: JSONLine, _ top: EventMembers, _ inner: inout EventMembers, to out: inout TextBytes) -> Bool {
    guard let derived = line.plainString(top[.derived]), let durationNs = line.plainInt(top[.durationNs]) else { return false }
    let outputChanged: Bool
    switch top[.outputChanged].kind {
    case .true: outputChanged = true
    case .false: outputChanged = false
    default: return false
    }
    let cause: Int?
    switch top[.cause] {
    case let value where value.isNone: cause = nil
    case let value:
      guard let int = line.plainInt(value) else { return false }
      cause = int
    }
    out.append(derived)
    out.append(" in ")
    out.append(string: Formatting.duration(nanoseconds: Double(durationNs)))
    if outputChanged {
      out.append(", output changed")
    } else {
      out.append(", ")
      out.open(.yellow, style)
      out.append("output unchanged")
      out.close(style)
    }
    if let cause {
      out.open(.dim, style)
      out.append(" (from #")
      out.append(int: cause)
      out.append(")")
      out.close(style)
    }
    return appendLocation(line, top[.source], &inner, to: &out)
  }

  private func storeCreatedDetails(_ line: JSONLine, _ top: EventMembers, to out: inout TextBytes) -> Bool {
    guard let store = line.plainString(top[.store]), let type = line.plainString(top[.type]),
      let identity = line.plainString(top[.identity])
    else { return false }
    let parent = top[.parent]
    guard parent.isNone || parent.kind == .string else { return false }
    // `identity != store` compares strings: byte for byte when both are ASCII.
    guard JSONLine.isASCII(identity), JSONLine.isASCII(store) else { return false }
    out.append("type ")
    out.append(type)
    if parent.kind == .string {
      out.append(", parent ")
      out.append(line.bytes(parent))
    }
    if !JSONLine.equal(identity, store) {
      out.append(", identity ")
      out.append(identity)
    }
    return true
  }

  private func identityChangedDetails(_ line: JSONLine, _ top: EventMembers, to out: inout TextBytes) -> Bool {
    guard let identity = line.plainString(top[.identity]), let reason = line.plainString(top[.reason]),
      JSONLine.equal(reason, "created") || JSONLine.equal(reason, "presented") || JSONLine.equal(reason, "dismissed")
        || JSONLine.equal(reason, "inserted") || JSONLine.equal(reason, "removed") || JSONLine.equal(reason, "replaced")
    else { return false }
    let previous = top[.previous]
    switch previous.kind {
    case .absent, .null:
      out.append(reason)
      out.append(" ")
      out.append(identity)
    case .string:
      out.append(reason)
      out.append(": ")
      out.append(line.bytes(previous))
      out.append(" → ")
      out.append(identity)
    default:
      return false
    }
    return true
  }

  // MARK: - Code locations (CONTRACT §9)

  /// A `source` object's `file` and `line`, checked as decoding checks it.
  private func readLocation(_ line: JSONLine, _ source: JSONLine.Value, _ inner: inout EventMembers) -> (file: Range<Int>, line: Int)? {
    guard source.kind == .object, inner.read(line, object: source), let file = line.plainString(inner[.file]),
      let number = line.plainInt(inner[.line])
    else { return nil }
    let path = inner[.path]
    guard path.isNone || path.kind == .string, JSONLine.isASCII(file) else { return nil }
    return (inner[.file].range, number)
  }

  /// ``CodeLocation/shortDescription``: the file's last path component and the line.
  private func appendShortLocation(_ line: JSONLine, _ location: (file: Range<Int>, line: Int), to out: inout TextBytes) {
    let file = line.bytes(location.file)
    let name = file.lastIndex(of: UInt8(ascii: "/")).map { UnsafeBufferPointer(rebasing: file[($0 + 1)...]) } ?? file
    out.append(name)
    out.append(":")
    out.append(int: location.line)
  }

  /// `  PageFeature.swift:42`, dim, for a `source` member; nothing when there is none.
  private func appendLocation(_ line: JSONLine, _ source: JSONLine.Value, _ inner: inout EventMembers, to out: inout TextBytes) -> Bool {
    if source.isNone { return true }
    guard let location = readLocation(line, source, &inner) else { return false }
    out.append("  ")
    out.open(.dim, style)
    appendShortLocation(line, location, to: &out)
    out.close(style)
    return true
  }

  // MARK: - State changes

  /// ``ChangeLines/lines(_:style:valueLimit:)`` under a `state.changed` line, each indented
  /// and ending in a line break; `false` for changes to decode (over the shown maximum, with
  /// shapes, or not plain).
  private func changeLines(_ line: JSONLine, _ changes: JSONLine.Value, _ inner: inout EventMembers, to out: inout TextBytes) -> Bool {
    guard changes.kind == .array else { return false }
    var elements = line.elements(of: changes)
    var shown = 0
    while let change = elements.next() {
      shown &+= 1
      guard shown <= ChangeLines.maximumChanges, change.kind == .object, inner.read(line, object: change),
        inner[.oldShape].isNone, inner[.newShape].isNone, let path = line.plainString(inner[.path]),
        let op = line.plainString(inner[.op])
      else { return false }
      let index: Int?
      switch inner[.index] {
      case let value where value.isNone: index = nil
      case let value:
        guard let int = line.plainInt(value) else { return false }
        index = int
      }
      let truncated: Bool
      switch inner[.truncated].kind {
      case .absent, .null, .false: truncated = false
      case .true: truncated = true
      default: return false
      }
      let old = inner[.old]
      let new = inner[.new]
      if JSONLine.equal(op, "replace") {
        if !old.isAbsent {
          guard changeLine(line, minus: true, path: path, position: nil, value: old, truncated: false, to: &out) else { return false }
        }
        guard changeLine(line, minus: false, path: path, position: nil, value: new, truncated: truncated, to: &out) else { return false }
      } else if JSONLine.equal(op, "insert") {
        var position: Int?
        if let index, path.last == UInt8(ascii: "]") {
          // `hasSuffix("]")` and the parse read characters: byte for byte when ASCII.
          guard JSONLine.isASCII(path) else { return false }
          let text = String(decoding: path, as: UTF8.self)
          if let parsed = try? StatePath(parsing: text), case .id? = parsed.components.last { position = index }
        }
        guard changeLine(line, minus: false, path: path, position: position, value: new, truncated: truncated, to: &out) else { return false }
      } else if JSONLine.equal(op, "remove") {
        guard changeLine(line, minus: true, path: path, position: nil, value: old, truncated: truncated, to: &out) else { return false }
      } else {
        return false
      }
    }
    return !elements.failed
  }

  /// One `− path: value` (red) or `+ path (at 2): value` (green) line.
  private func changeLine(
    _ line: JSONLine, minus: Bool, path: UnsafeBufferPointer<UInt8>, position: Int?, value: JSONLine.Value, truncated: Bool,
    to out: inout TextBytes
  ) -> Bool {
    out.append(spaces: 22)
    out.open(minus ? .red : .green, style)
    out.append(minus ? "− " : "+ ")
    if path.isEmpty { out.append("@self") } else { out.append(path) }
    if let position {
      out.append(" (at ")
      out.append(int: position)
      out.append(")")
    }
    out.append(": ")
    // An absent value reads as null (`nil`).
    let shown = value.isAbsent ? JSONLine.Value(kind: .null, start: 0, end: 0) : value
    guard RawValueText.append(shown, in: line, limit: 120, to: &out) else { return false }
    if truncated { out.append(" (truncated)") }
    out.close(style)
    out.append(byte: 0x0A)
    return true
  }
}
