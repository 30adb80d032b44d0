import LoupeCore

/// `loupe doctor` over several runs: each finding once, saying in how many runs and which it
/// appeared ("Effect cancelled by another store: 7 of 200 runs"), with the details of the
/// first run it appeared in. Memory is bounded by runs and findings, not events.
package struct DoctorRuns {
  package struct Run {
    package var path: String
    package var program: String
    package var events: Int
    package var problems: Int
    package var notes: Int
    package var warnings: [String]

    package init(path: String, program: String, events: Int, problems: Int, notes: Int, warnings: [String]) {
      self.path = path
      self.program = program
      self.events = events
      self.problems = problems
      self.notes = notes
      self.warnings = warnings
    }
  }

  package init() {}

  package struct Group {
    package var first: Finding
    package var firstRun: String
    package var runs = Examples<String>(limit: 10)
  }

  package private(set) var runs: [Run] = []
  private var groups: [String: Group] = [:]
  /// Codes in the order they were first found.
  private var order: [String] = []
  package private(set) var ignored = 0

  /// One run's findings (after `--ignore`), `ignored` of them left out.
  mutating package func add(_ run: Run, findings: [Finding], ignored: Int) {
    runs.append(run)
    self.ignored += ignored
    var seen: Set<String> = []
    for finding in findings where seen.insert(finding.code).inserted {
      if groups[finding.code] == nil {
        groups[finding.code] = Group(first: finding, firstRun: run.path)
        order.append(finding.code)
      }
      groups[finding.code]!.runs.add(run.path)
    }
  }

  /// Problems first, then notes, each in the order first found.
  private var sorted: [Group] {
    let all = order.map { groups[$0]! }
    return all.filter { $0.first.severity == .problem } + all.filter { $0.first.severity == .note }
  }

  package var hasProblems: Bool { groups.values.contains { $0.first.severity == .problem } }

  /// A group as one finding: its title says in how many runs, its details which ones.
  private func summary(_ group: Group) -> Finding {
    var finding = group.first
    finding.title += ": \(Formatting.count(group.runs.count)) of \(Formatting.plural(runs.count, "run"))"
    let runs = group.runs.count > 1 ? ["In \(Formatting.runList(group.runs.items, count: group.runs.count, limit: 10)); in \(group.firstRun):"] : ["In \(group.firstRun):"]
    finding.details = runs + finding.details
    return finding
  }

  package func text(style: Style) -> String {
    let events = runs.reduce(0) { $0 + $1.events }
    let subject = "\(Formatting.plural(runs.count, "run")) (\(Formatting.plural(events, "event")))"
    let ignoredText = ignored > 0 ? " (\(Formatting.plural(ignored, "finding")) ignored)" : ""
    let groups = sorted
    guard !groups.isEmpty else { return "No problems found in \(subject)\(ignoredText).\n" }
    let problems = groups.filter { $0.first.severity == .problem }.count
    let notes = groups.count - problems
    var counts = problems == 0 ? "no problems" : Formatting.plural(problems, "problem")
    if notes > 0 { counts += " and " + Formatting.plural(notes, "note") }
    let affected = runs.filter { $0.problems + $0.notes > 0 }.count
    var text = style.bold("Found \(counts) in \(Formatting.count(affected)) of \(subject)\(ignoredText):") + "\n"
    for (offset, group) in groups.enumerated() {
      text += "\n" + summary(group).text(number: offset + 1, style: style)
    }
    return text
  }

  package func json() -> JSON {
    func object(_ group: Group) -> JSON {
      guard case .object(var object) = group.first.json else { return group.first.json }
      object.append("runCount", .int(group.runs.count))
      object.append("runs", .array(group.runs.items.map(JSON.string)))
      object.append("firstRun", .string(group.firstRun))
      return .object(object)
    }
    let groups = sorted
    return [
      "runs": .array(
        runs.map {
          [
            "path": .string($0.path), "program": .string($0.program), "events": .int($0.events), "problems": .int($0.problems),
            "notes": .int($0.notes), "warnings": .array($0.warnings.map(JSON.string)),
          ]
        }),
      "problems": .array(groups.filter { $0.first.severity == .problem }.map(object)),
      "notes": .array(groups.filter { $0.first.severity == .note }.map(object)),
      "ignored": .int(ignored),
    ]
  }
}
