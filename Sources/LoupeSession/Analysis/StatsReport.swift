import LoupeCore

/// `loupe stats` output: aligned tables for people, or one JSON object (`--json`).
package struct StatsReport {
  package init(statistics: TraceStatistics, header: TraceHeader, path: String, runs: [String] = []) {
    self.statistics = statistics
    self.header = header
    self.path = path
    self.runs = runs
  }

  package var statistics: TraceStatistics
  package var header: TraceHeader
  package var path: String
  /// With several runs: their paths (`path` and `header` are then the first's).
  package var runs: [String] = []

  private var actionRows: [(String, TraceStatistics.ActionRow)] {
    statistics.actions.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }
  }
  private var effectRows: [(TraceStatistics.EffectKey, TraceStatistics.EffectRow)] {
    statistics.effects.sorted { ($1.value.started, $0.key) < ($0.value.started, $1.key) }
  }
  private var derivedRows: [(String, TraceStatistics.DerivedRow)] {
    statistics.derived.sorted { ($1.value.recomputed, $0.key) < ($0.value.recomputed, $1.key) }
  }
  private var identityRows: [(String, TraceStatistics.IdentityRow)] {
    statistics.identities.rows.sorted { ($1.value.changes, $0.key) < ($0.value.changes, $1.key) }
  }

  /// Said under the identity table when its rows are by store shape.
  static package let groupedNote =
    "Over \(Formatting.count(StoreRows<Int>.defaultLimit)) stores changed identity: rows are by store shape, [id: *] and #* standing for any id and number."

  private static func ms(_ value: Double?) -> String {
    value.map { Formatting.duration(milliseconds: $0) } ?? "–"
  }

  package func text(style: Style) -> String {
    let s = statistics
    var text = ""
    if runs.count > 1 {
      text += "\(style.bold("Runs"))      \(Formatting.count(runs.count)): \(Formatting.runList(runs))\n"
    } else {
      let program = header.program.isEmpty ? "" : " — \(header.program) (pid \(header.pid))"
      text += "\(style.bold("Trace"))     \(path)\(program)\n"
      if !header.startedAt.isEmpty { text += "\(style.bold("Started"))   \(header.startedAt)\n" }
    }
    let span = s.span
    text += "\(style.bold("Events"))    \(Formatting.count(s.events)) over \(Formatting.duration(milliseconds: span))"
    if s.dropped > 0 { text += ", " + style.apply(.boldRed, "\(Formatting.count(s.dropped)) dropped") }
    text += "\n"
    text += "\(style.bold("Stores"))    \(s.storesCreated) created, \(s.storesDestroyed) destroyed\n"

    text += "\n"
    if s.actions.isEmpty {
      text += "No actions.\n"
    } else {
      var table = Table([.text("ACTION"), .number("COUNT"), .number("REDUCER p50"), .number("p95"), .number("MAX"), .number("TOTAL")])
      for (action, row) in actionRows {
        let r = row.reducer
        table.add([
          action, Formatting.count(row.count), Self.ms(r.percentile(50)), Self.ms(r.percentile(95)),
          r.count == 0 ? "–" : Self.ms(r.maximum), r.count == 0 ? "–" : Self.ms(r.total),
        ])
      }
      text += table.render(style: style)
    }

    text += "\n"
    if s.effects.isEmpty {
      text += "No effects.\n"
    } else {
      // The line that created the effects, when the trace says (CONTRACT §9).
      let showSources = effectRows.contains { $0.0.source != nil }
      var table = Table(
        [.text("EFFECTS STARTED BY")] + (showSources ? [.text("AT")] : []) + [
          .text("CANCEL ID"), .number("STARTED"), .number("COMPLETED"), .number("FAILED"),
          .number("CANCELLED"), .number("RUNNING"), .number("p50"), .number("p95"),
        ])
      for (key, row) in effectRows {
        let running = row.running > 0 ? style.apply(.yellow, Formatting.count(row.running)) : "0"
        table.add(
          [key.action] + (showSources ? [key.source?.shortDescription ?? "–"] : []) + [
          key.cancelID ?? "–", Formatting.count(row.started), Formatting.count(row.completed),
          Formatting.count(row.failed), Formatting.count(row.cancelled), running,
          Self.ms(row.durations.percentile(50)), Self.ms(row.durations.percentile(95)),
        ])
      }
      text += table.render(style: style)
      text += style.dim("RUNNING: started and neither finished nor cancelled by the end of the trace. Durations: ended effects.") + "\n"
    }

    if !s.derived.isEmpty {
      text += "\n"
      var table = Table([.text("DERIVED VALUE"), .number("RECOMPUTED"), .number("UNCHANGED"), .number("p50"), .number("p95"), .number("TOTAL")])
      for (name, row) in derivedRows {
        table.add([
          name, Formatting.count(row.recomputed), Formatting.count(row.unchanged),
          Self.ms(row.durations.percentile(50)), Self.ms(row.durations.percentile(95)), Self.ms(row.durations.total),
        ])
      }
      text += table.render(style: style)
      text += style.dim("UNCHANGED: recomputations whose output equalled the previous one.") + "\n"
    }

    if !s.identities.isEmpty {
      text += "\n"
      var table = Table([.text("STORE"), .number("IDENTITY CHANGES"), .text("REASONS")])
      for (store, row) in identityRows {
        let reasons = row.reasons.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
        table.add([store, Formatting.count(row.changes), reasons.joined(separator: ", ")])
      }
      text += table.render(style: style)
      if s.identities.grouped {
        text += style.dim(Self.groupedNote) + "\n"
      }
    }

    if !s.warnings.isEmpty {
      text += "\n"
      var table = Table([.text("WARNING"), .number("COUNT")])
      for (code, count) in s.warnings.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
        table.add([code, Formatting.count(count)])
      }
      text += table.render(style: style)
    }
    return text
  }

  /// Milliseconds rounded to the nanosecond, so float noise does not show.
  private static func milliseconds(_ value: Double) -> JSON {
    .double((value * 1_000_000).rounded() / 1_000_000)
  }

  package func json() -> JSON {
    let s = statistics
    func distribution(_ d: Distribution) -> JSON {
      guard d.count > 0 else { return .null }
      return [
        "count": .int(d.count), "p50Ms": Self.milliseconds(d.percentile(50)!), "p95Ms": Self.milliseconds(d.percentile(95)!),
        "maxMs": Self.milliseconds(d.maximum), "totalMs": Self.milliseconds(d.total),
      ]
    }
    var kinds = JSONObject()
    for (kind, count) in s.kinds.sorted(by: { $0.key < $1.key }) { kinds.append(kind, .int(count)) }
    var warnings = JSONObject()
    for (code, count) in s.warnings.sorted(by: { $0.key < $1.key }) { warnings.append(code, .int(count)) }
    var trace: JSON = [
      "path": .string(path), "program": .string(header.program), "pid": .int(header.pid),
      "startedAt": .string(header.startedAt), "events": .int(s.events),
      "durationMs": Self.milliseconds(s.span), "kinds": .object(kinds),
      "storesCreated": .int(s.storesCreated), "storesDestroyed": .int(s.storesDestroyed), "dropped": .int(s.dropped),
    ]
    if s.identities.grouped, case .object(var object) = trace {
      // Rows are by store shape (`AppFeature#*/pages[id: *]`): more stores than the limit. In
      // `trace`, so the MCP tool's closed top-level schema still holds.
      object.append("identityChangesByShape", true)
      trace = .object(object)
    }
    var result: JSONObject = [
      "trace": trace,
      "actions": .array(actionRows.map { ["action": .string($0.0), "count": .int($0.1.count), "reducer": distribution($0.1.reducer)] }),
      "effects": .array(
        effectRows.map { key, row in
          var object: JSONObject = ["startedBy": .string(key.action)]
          // Where the effects were created, when the trace says (CONTRACT §9).
          if let source = key.source { object.append("source", source.json) }
          object.append("cancelID", key.cancelID.map(JSON.string) ?? .null)
          object.append("started", .int(row.started))
          object.append("completed", .int(row.completed))
          object.append("failed", .int(row.failed))
          object.append("cancelled", .int(row.cancelled))
          object.append("running", .int(row.running))
          object.append("durations", distribution(row.durations))
          return .object(object)
        }),
      "derived": .array(
        derivedRows.map { name, row in
          [
            "derived": .string(name), "recomputed": .int(row.recomputed), "unchanged": .int(row.unchanged),
            "durations": distribution(row.durations),
          ]
        }),
      "identityChanges": .array(
        identityRows.map { store, row in
          var reasons = JSONObject()
          for (reason, count) in row.reasons.sorted(by: { $0.key < $1.key }) { reasons.append(reason, .int(count)) }
          return ["store": .string(store), "changes": .int(row.changes), "reasons": .object(reasons)]
        }),
      "warnings": .object(warnings),
    ]
    if runs.count > 1 {
      // Several runs: totals over all of them; `trace` describes the first.
      result.append("runs", .array(runs.map(JSON.string)))
    }
    return .object(result)
  }
}
