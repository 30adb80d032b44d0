import LoupeCore

/// The change lines of a rebuild focused on one scoped store (``ScopeFocus``), read back by
/// position: which changes land beside the store's scope, from their line's `store` and paths
/// alone (``StateChangeSkim``), without decoding them; the others are decoded from the line
/// already read.
///
/// ``TraceStateIndex`` reads `loupe state`'s one answer this way, and ``SessionModel`` its
/// first answers about a root store that has no snapshot while the root is rebuilt whole
/// aside (``RootRebuildAside``).
final class FocusedChangeReader {
  let focus: ScopeFocus
  private let read: (Int) -> [UInt8]?
  /// Set once a change about to be applied may rename an element on the scope's way
  /// (``ScopeFocus/mayRename(_:)``): the focused state is wasted, and every later change is
  /// left out; the caller rebuilds the root whole.
  private(set) var broken = false
  /// How many changes were left out.
  private(set) var leftOut = 0
  /// The paths of the line skimmed last (kept to reuse their storage).
  private var paths: [Range<Int>] = []
  /// The line read last, by position: a change not left out is decoded from it.
  private var last: (position: Int, bytes: [UInt8])?

  /// The store of a change its owner's index says may be left out by its store alone
  /// (``StateIndex/Root/pinned``), as a number for `storeName`; `nil`: read its line.
  private let indexedStore: ((Int) -> Int?)?
  private let storeName: (Int) -> String
  /// Where each store's changes land, by its number.
  private var reaches: [ScopeFocus.Reach?] = []

  /// `read` gives the line of the change at a position (`nil`: it cannot be read);
  /// `indexedStore` and `storeName` what an index knows of it (above).
  init(
    _ focus: ScopeFocus, reading read: @escaping (Int) -> [UInt8]?, indexedStore: ((Int) -> Int?)? = nil,
    storeName: @escaping (Int) -> String = { _ in "" }
  ) {
    self.focus = focus
    self.read = read
    self.indexedStore = indexedStore
    self.storeName = storeName
  }

  /// Where the changes of store number `code` land.
  private func reach(ofStore code: Int) -> ScopeFocus.Reach {
    if code < reaches.count, let known = reaches[code] { return known }
    let reach = focus.reach(ofStore: storeName(code))
    if code >= reaches.count { reaches += Array(repeating: nil, count: code - reaches.count + 1) }
    reaches[code] = reach
    return reach
  }

  /// Whether the change at `position` lands beside the focused scope in `value`, the root's
  /// state so far, whose identified arrays' ids are in `directory` (``StateIndex``'s
  /// `leavingOut`). Every change is, once the focus is ``broken``.
  func leavesOut(_ position: Int, _ value: JSON, _ directory: IDDirectory) -> Bool {
    if broken { return true }
    if let code = indexedStore?(position) {
      // No path of it may rename an element and it has no shape: its store says it all.
      switch reach(ofStore: code) {
      case .reaches:
        return false
      case .beside(let depth, let element, _):
        let leaves = focus.holdsSibling(value, depth: depth, element: element, directory: directory)
        if leaves { leftOut += 1 }
        return leaves
      }
    }
    guard let bytes = read(position) else { return false }  // decoded (and found unreadable) as usual
    last = (position, bytes)
    let leaves = bytes.withUnsafeBufferPointer { line in
      guard let store = StateChangeSkim.read(line, paths: &paths) else { return false }
      switch focus.reach(ofStore: UnsafeBufferPointer(rebasing: line[store])) {
      case .reaches:
        return false
      case .beside(let depth, let element, let pathsMatter):
        if pathsMatter {
          for path in paths where !ScopeFocus.pathLeavesIDAlone(UnsafeBufferPointer(rebasing: line[path])) { return false }
        }
        return focus.holdsSibling(value, depth: depth, element: element, directory: directory)
      }
    }
    if leaves { leftOut += 1 }
    return leaves
  }

  /// The line at `position`: the one ``leavesOut(_:_:_:)`` read last when it is that one.
  func line(at position: Int) -> [UInt8]? {
    defer { last = nil }
    if let last, last.position == position { return last.bytes }
    return read(position)
  }

  /// Notes the event about to be applied: a change that may rename an element on the scope's
  /// way breaks the focus.
  func check(_ event: Event?) {
    if !broken, case .stateChanged(let e)? = event?.payload, focus.mayRename(e) { broken = true }
  }
}
