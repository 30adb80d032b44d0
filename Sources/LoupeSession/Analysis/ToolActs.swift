import LoupeCore

/// The doctor's note on what tools did to the program (CONTRACT §16): a recording with
/// actions a tool sent, or states it set, is not only the user's story.
enum ToolActs {
  /// The mark the program emits before the changes of a `loupe/setState`:
  /// `setState STORE by CLIENT`.
  static func stateSet(by label: String) -> String? {
    guard label.hasPrefix("setState "), let by = label.range(of: " by ") else { return nil }
    let store = label[label.index(label.startIndex, offsetBy: "setState ".count)..<by.lowerBound]
    guard !store.isEmpty, !store.contains(" ") else { return nil }
    return "state of \(store) set by \(label[by.upperBound...])"
  }

  static func finding(_ acts: Examples<(seq: Int, what: String)>) -> Finding {
    Finding(
      code: "acted-on-by-tool",
      title: "A tool acted on the program",
      details: acts.items.map { "#\($0.seq): \($0.what)." }
        + (acts.count > acts.items.count ? ["\(Formatting.count(acts.count)) in all."] : []),
      why: "The program allowed control (LOUPE_CONTROL=1), and a tool (loupe send or set-state, an editor's Debug Console, an MCP agent) sent actions or replaced the state. They are part of this recording, but not of what the user did.",
      fix: "Read the recording without them (their action.received has origin tool), and check that a bug happens without them: 'loupe replay-actions' sends only the program's own actions (origin send).",
      seqs: acts.items.map(\.seq),
      severity: .note)
  }
}
