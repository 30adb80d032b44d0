import LoupeCore
import LoupeSession

/// The timeline (`--format text`) written straight from a trace line's bytes: the same text
/// as decoding the line and calling ``TimelineRenderer/render(_:format:shown:)``, without
/// building an ``Event``, a ``JSON`` tree or a `String` per piece (issue 18: `show` text).
///
/// It covers the kinds and forms a trace is made of — actions, state changes with plain
/// values, effects, derived values, stores created and destroyed, identity changes, marks
/// (`TimelineRenderer+LineKinds.swift`, `+LineChanges.swift`) — and declines the rest: it returns
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

  enum LineKind {
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
  enum Note {
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
      // A tool's change (`origin`, CONTRACT §16) says so: decoding writes that.
      guard line.plainInt(top[.cause]) != nil, top[.origin].isNone, top[.client].isNone, let summary = line.plainString(top[.summary]) else {
        return false
      }
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
}
