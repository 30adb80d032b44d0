import LoupeCore
import LoupeSession

/// The details of each kind the timeline writes from bytes (see `TimelineRenderer+Lines.swift`):
/// each reads and checks its members as decoding would, writes what ``TimelineRenderer``'s
/// `details(_:)` writes for the decoded event, and returns `nil`/`false` to decline the line.
extension TimelineRenderer {
  func actionDetails(
    _ line: JSONLine, _ top: EventMembers, _ inner: inout EventMembers, seq: Int, to out: inout TextBytes
  ) -> Note? {
    let labelValue = top[.action]
    guard let label = line.plainString(labelValue), top[.shape].isNone, top[.client].isNone else { return nil }
    guard let effect = line.optionalPlainInt(top[.effect]) else { return nil }
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
  func appendActionPayload(_ line: JSONLine, label: UnsafeBufferPointer<UInt8>, value: JSONLine.Value, to out: inout TextBytes) -> Bool {
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

  func effectStartedDetails(
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
  func appendCause(_ cause: Int, to out: inout TextBytes) {
    out.open(.dim, style)
    out.append(" (from ")
    appendCauseReference(cause, to: &out)
    out.append(")")
    out.close(style)
  }

  /// `#5 PageFeature.Action.startTapped`: a cause, and its action's label when it is known.
  func appendCauseReference(_ cause: Int, to out: inout TextBytes) {
    out.append("#")
    out.append(int: cause)
    if let label = actions[cause] {
      out.append(" ")
      out.append(string: label)
    }
  }

  func effectFinishedDetails(_ line: JSONLine, _ top: EventMembers, time: Double, to out: inout TextBytes) -> Note? {
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

  func appendRan(_ effect: Int, until time: Double, to out: inout TextBytes) {
    guard let start = runningEffects[effect] else { return }
    out.append(" after ")
    out.append(string: Formatting.duration(milliseconds: time - start.time))
  }

  func effectCancelledDetails(
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

  func derivedDetails(_ line: JSONLine, _ top: EventMembers, _ inner: inout EventMembers, to out: inout TextBytes) -> Bool {
    guard let derived = line.plainString(top[.derived]), let durationNs = line.plainInt(top[.durationNs]) else { return false }
    let outputChanged: Bool
    switch top[.outputChanged].kind {
    case .true: outputChanged = true
    case .false: outputChanged = false
    default: return false
    }
    guard let cause = line.optionalPlainInt(top[.cause]) else { return false }
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

  func storeCreatedDetails(_ line: JSONLine, _ top: EventMembers, to out: inout TextBytes) -> Bool {
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

  func identityChangedDetails(_ line: JSONLine, _ top: EventMembers, to out: inout TextBytes) -> Bool {
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
  func readLocation(_ line: JSONLine, _ source: JSONLine.Value, _ inner: inout EventMembers) -> (file: Range<Int>, line: Int)? {
    guard source.kind == .object, inner.read(line, object: source), let file = line.plainString(inner[.file]),
      let number = line.plainInt(inner[.line])
    else { return nil }
    let path = inner[.path]
    guard path.isNone || path.kind == .string, JSONLine.isASCII(file) else { return nil }
    return (inner[.file].range, number)
  }

  /// ``CodeLocation/shortDescription``: the file's last path component and the line.
  func appendShortLocation(_ line: JSONLine, _ location: (file: Range<Int>, line: Int), to out: inout TextBytes) {
    let file = line.bytes(location.file)
    let name = file.lastIndex(of: UInt8(ascii: "/")).map { UnsafeBufferPointer(rebasing: file[($0 + 1)...]) } ?? file
    out.append(name)
    out.append(":")
    out.append(int: location.line)
  }

  /// `  PageFeature.swift:42`, dim, for a `source` member; nothing when there is none.
  func appendLocation(_ line: JSONLine, _ source: JSONLine.Value, _ inner: inout EventMembers, to out: inout TextBytes) -> Bool {
    if source.isNone { return true }
    guard let location = readLocation(line, source, &inner) else { return false }
    out.append("  ")
    out.open(.dim, style)
    appendShortLocation(line, location, to: &out)
    out.close(style)
    return true
  }
}
