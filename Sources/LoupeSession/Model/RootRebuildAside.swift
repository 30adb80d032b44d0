import Foundation
import LoupeCore

/// A root store's state rebuilt whole from a finished trace's start, on a thread of its own,
/// for the packed checkpoints it leaves behind: a ``SessionModel`` asked about a root without
/// snapshots far from any checkpoint answers about the scoped store it was asked about first
/// (a rebuild focused on it, ``FocusedChangeReader``), and adopts these checkpoints
/// (``StateIndex/adopt(_:of:)``) once they are made, so that the next questions about any of
/// the root's stores apply at most a spacing's changes (issue 33 item 18).
///
/// The thread reads the root's change lines by the locations it was handed, from a handle of
/// its own on the file the model opened (not the path, which may name another file by now),
/// into a ``StateIndex`` of its own (the changes numbered from 0, so its
/// checkpoints' `applied` counts are the model's), which packs on its own packer: it shares
/// nothing with the model. It stops early when cancelled (the model is freed).
package final class RootRebuildAside: @unchecked Sendable {
  package let root: String
  private let condition = NSCondition()
  private var checkpoints: [StateIndex.Checkpoint]?
  private var cancelled = false

  /// Read by the rebuild's thread only.
  private let file: TraceLineFile

  /// Rebuilds `root` from the changes whose lines are at `lines` in `file` (a reader of its
  /// own: ``TraceLineFile/secondReader()``), in order (those before its first snapshot),
  /// keeping at most `checkpointBudget` bytes of checkpoints.
  package init(root: String, file: TraceLineFile, lines: [TraceLineLocation], checkpointBudget: Int) {
    self.root = root
    self.file = file
    let thread = Thread { [self] in
      let made = Self.rebuild(root, file: self.file, lines: lines, checkpointBudget: checkpointBudget) { isCancelled }
      condition.lock()
      checkpoints = made
      condition.broadcast()
      condition.unlock()
    }
    thread.name = "loupe rebuild aside"
    thread.start()
  }

  /// The checkpoints made, once the rebuild is done (with `waiting`, waiting for it); `nil`
  /// while it is under way.
  package func checkpoints(waiting: Bool) -> [StateIndex.Checkpoint]? {
    condition.lock()
    defer { condition.unlock() }
    while waiting, checkpoints == nil { condition.wait() }
    return checkpoints
  }

  /// Stops the rebuild at its next stride (its checkpoints are then not worth adopting).
  package func cancel() {
    condition.lock()
    cancelled = true
    condition.unlock()
  }

  private var isCancelled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return cancelled
  }

  /// Changes applied between two looks at whether the rebuild was cancelled.
  static let stride = 16_384

  private static func rebuild(
    _ root: String, file: TraceLineFile, lines: [TraceLineLocation], checkpointBudget: Int, isCancelled: () -> Bool
  ) -> [StateIndex.Checkpoint] {
    var index = StateIndex(checkpointBudget: checkpointBudget)
    index.packer = CheckpointPacker()
    for ordinal in lines.indices { index.add(changeOf: root, at: ordinal) }
    var done = 0
    while done < lines.count {
      if isCancelled() { return [] }
      done = min(lines.count, done + stride)
      // What the model's own rebuild reads (``EventStorage/event(at:remembering:)``): a line
      // that cannot be read back, or no longer decodes, leaves the state approximate.
      _ = index.rootState(root, at: done - 1) { ordinal in
        let line = lines[ordinal]
        return try? Event.decoded(jsonText: file.read(offset: line.offset, length: line.length))
      }
    }
    return index.roots[root]?.checkpoints ?? []
  }
}
