import LoupeCore

/// `loupe/state` with `at` in a live program (CONTRACT §10): a store's state right after an
/// event of the hub's history, rebuilt with the core ``StateRebuilder`` from its root store's
/// last snapshot at or before that event and the changes since.
///
/// The log and the kept snapshots are taken in O(1) under the hub's lock; everything else runs
/// on the caller's thread (the client's reader), never on the program's.
struct HistoryState {
  let log: EventLogSnapshot
  let kept: KeptSnapshots

  /// Why a state at a `seq` cannot be answered; the descriptions are the `-32602` messages.
  enum Failure: Error, Equatable, CustomStringConvertible {
    case emptyHistory
    case notYet(at: Int, latest: Int)
    case noSnapshot(store: String, root: String)
    case tooOld(store: String, at: Int, oldest: Int)
    case noState(store: String, at: Int)
    case noValueAtPath(store: String, path: String, at: Int)

    var description: String {
      switch self {
      case .emptyHistory:
        "This program's history holds no events yet"
      case .notYet(let at, let latest):
        "No event \(at) yet: the latest is \(latest)"
      case .noSnapshot(let store, let root):
        "This program's history holds no state.snapshot of \(root), so the state of '\(store)' at a seq cannot be rebuilt (snapshots off?)"
      case .tooOld(let store, let at, let oldest):
        "Seq \(at) is older than this program's history of '\(store)': the oldest seq it can answer for is \(oldest)"
      case .noState(let store, let at):
        "Store '\(store)' has no state at seq \(at)"
      case .noValueAtPath(let store, let path, let at):
        "Store '\(store)' has no value at path '\(path)' at seq \(at)"
      }
    }
  }

  /// The state of `store` right after the event numbered `seq`, at `path` inside it.
  func state(of store: String, at seq: Int, path: StatePath?) -> Result<RebuiltState, Failure> {
    guard log.count > 0 else { return .failure(.emptyHistory) }
    let newest = log.event(at: log.end - 1).seq
    guard seq <= newest else { return .failure(.notYet(at: seq, latest: newest)) }
    let rootID = StateRebuilder.rootStore(of: store)
    // Positions run with seqs in the log: the event numbered `seq`, or the last one before it.
    let oldestInLog = log.event(at: log.first).seq
    let last = seq >= oldestInLog ? log.first + (seq - oldestInLog) : log.first - 1
    let keptRoot = kept.roots[rootID].flatMap { $0.snapshot.position < log.first ? $0 : nil }

    // The root's last snapshot at or before `last`: in the log, else the kept one.
    var base: Int?
    var position = last
    while position >= log.first {
      if Self.isSnapshot(log.event(at: position), of: rootID) {
        base = position
        break
      }
      position -= 1
    }
    var rebuilder = StateRebuilder()
    func apply(_ event: Event) {
      switch event.payload {
      case .stateSnapshot(let e) where e.store == rootID: rebuilder.apply(event)
      case .stateChanged(let e) where StateRebuilder.rootStore(of: e.store) == rootID: rebuilder.apply(event)
      default: break
      }
    }
    if let base {
      for position in base...last { apply(log.event(at: position)) }
    } else if let keptRoot, keptRoot.snapshot.event.seq <= seq {
      apply(keptRoot.snapshot.event)
      for change in keptRoot.changes where change.position < log.first && change.event.seq <= seq { apply(change.event) }
      if last >= log.first {
        for position in log.first...last { apply(log.event(at: position)) }
      }
    } else {
      guard let oldest = oldestAnswerable(rootID) else { return .failure(.noSnapshot(store: store, root: rootID)) }
      return .failure(.tooOld(store: store, at: seq, oldest: oldest))
    }
    guard let state = rebuilder.state(of: store) else { return .failure(.noState(store: store, at: seq)) }
    guard let path, !path.isRoot else { return .success(state) }
    guard let value = state.at(path) else {
      return .failure(.noValueAtPath(store: store, path: path.description, at: seq))
    }
    return .success(value)
  }

  /// The `seq` of the root's oldest snapshot still held (kept, or the first in the log).
  func oldestAnswerable(_ rootID: String) -> Int? {
    if let root = kept.roots[rootID], root.snapshot.position < log.first { return root.snapshot.event.seq }
    for position in log.first..<log.end where Self.isSnapshot(log.event(at: position), of: rootID) {
      return log.event(at: position).seq
    }
    return nil
  }

  private static func isSnapshot(_ event: Event, of rootID: String) -> Bool {
    if case .stateSnapshot(let snapshot) = event.payload { snapshot.store == rootID } else { false }
  }
}
