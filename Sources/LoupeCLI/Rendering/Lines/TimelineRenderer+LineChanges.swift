import LoupeCore

/// The −/+ lines under a `state.changed` event, written from bytes (see
/// `TimelineRenderer+Lines.swift`): ``ChangeLines`` and ``ChangeText`` for changes whose values
/// have no shape.
extension TimelineRenderer {
  /// ``ChangeLines/lines(_:style:valueLimit:)`` under a `state.changed` line, each indented
  /// and ending in a line break; `false` for changes to decode (over the shown maximum, with
  /// shapes, or not plain).
  func changeLines(_ line: JSONLine, _ changes: JSONLine.Value, _ inner: inout EventMembers, to out: inout TextBytes) -> Bool {
    guard changes.kind == .array else { return false }
    var elements = line.elements(of: changes)
    var shown = 0
    while let change = elements.next() {
      shown &+= 1
      guard shown <= ChangeLines.maximumChanges, change.kind == .object, inner.read(line, object: change),
        inner[.oldShape].isNone, inner[.newShape].isNone, let path = line.plainString(inner[.path]),
        let op = line.plainString(inner[.op])
      else { return false }
      guard let index = line.optionalPlainInt(inner[.index]) else { return false }
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
  func changeLine(
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
