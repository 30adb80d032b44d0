import LoupeCore

/// The filter of CONTRACT §5 as tool arguments: `kinds`, `stores`, `actions`, `paths`, each a
/// list of globs (`*`, `?`).
enum FilterArguments {
  static let schema: [(String, JSON)] = [
    ("kinds", JSONSchema.stringArray("Event kinds to keep (globs), e.g. [\"effect.*\", \"action.received\"].")),
    ("stores", JSONSchema.stringArray("Store ids to keep (globs), e.g. [\"AppFeature#1/pages*\"].")),
    ("actions", JSONSchema.stringArray("Keep only action.received events whose label matches, e.g. [\"*timerTicked\"].")),
    ("paths", JSONSchema.stringArray("Keep only state.changed events changing a matching path, e.g. [\"pages*.count\"].")),
  ]

  static func filter(_ arguments: ToolArguments) -> EventFilter {
    func globs(_ name: String) -> [Glob]? { arguments.strings(name).map { $0.map { Glob($0) } } }
    return EventFilter(kinds: globs("kinds"), stores: globs("stores"), actions: globs("actions"), paths: globs("paths"))
  }

  /// The filter as given, for answers (`kinds=effect.*`).
  static func describe(_ arguments: ToolArguments) -> String? {
    let parts = ["kinds", "stores", "actions", "paths"].compactMap { name in
      arguments.strings(name).map { "\(name)=\($0.joined(separator: ","))" }
    }
    return parts.isEmpty ? nil : parts.joined(separator: " ")
  }
}
