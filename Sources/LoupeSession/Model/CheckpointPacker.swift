import Foundation
import LoupeCore

/// Packs a ``StateIndex``'s checkpoints on a thread of its own, one at a time, while the
/// rebuild goes on applying changes: packing a checkpoint costs about what applying the
/// changes up to the next one does (``StateIndex/Root/spacing``), so on two cores it leaves
/// the rebuild's path (BENCHMARKS.md, issue 33 item 18).
///
/// The state handed over is a copy (its containers shared until the rebuild edits its own):
/// the packing reads a value no one else writes. The owner takes each packing back
/// (``take(waiting:)``) before it hands over the next, and at the end of a rebuild, so at most
/// one state is in flight and the index, at rest, holds every checkpoint it made.
package final class CheckpointPacker: Sendable {
  /// A state to pack, and where it goes.
  package struct Job: Sendable {
    package var root: String
    package var base: Int
    package var applied: Int
    package var state: RebuiltState
    package var expectedBytes: Int
  }

  /// A packed checkpoint, and where it goes.
  package struct Packed: Sendable {
    package var root: String
    package var base: Int
    package var applied: Int
    package var state: PackedState
    /// The state packed, handed back so that the owner lets go of it (see ``Mailbox/run()``).
    var spent: RebuiltState?
  }

  private let mailbox = Mailbox()

  package init() {}

  /// Ends the packing thread (it finishes a packing in hand first).
  deinit { mailbox.close() }

  /// Packs `job` on the packing thread (started on the first one).
  package func pack(_ job: Job) { mailbox.post(job) }

  /// The checkpoints packed since the last call, in the order they were handed over; with
  /// `waiting`, once every one handed over is packed.
  package func take(waiting: Bool) -> [Packed] { mailbox.take(waiting: waiting) }

  /// What the owner and the packing thread share, all of it guarded by `condition` (the thread
  /// holds the mailbox, not the packer, so that the packer's end ends the thread).
  private final class Mailbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var packed: [Packed] = []
    private var busy = false
    private var started = false
    private var closed = false

    func post(_ job: Job) {
      condition.lock()
      defer { condition.unlock() }
      jobs.append(job)
      if !started {
        started = true
        let thread = Thread { [self] in run() }
        thread.name = "loupe checkpoints"
        thread.start()
      }
      condition.broadcast()
    }

    func take(waiting: Bool) -> [Packed] {
      condition.lock()
      defer { condition.unlock() }
      while waiting, !jobs.isEmpty || busy { condition.wait() }
      defer { packed.removeAll() }
      return packed
    }

    func close() {
      condition.lock()
      closed = true
      condition.broadcast()
      condition.unlock()
    }

    private func run() {
      condition.lock()
      while true {
        while jobs.isEmpty, !closed { condition.wait() }
        if jobs.isEmpty { break }  // closed, and nothing left to pack
        let job = jobs.removeFirst()
        busy = true
        condition.unlock()
        let state = PackedState(job.state, expectedBytes: job.expectedBytes)
        condition.lock()
        // The state read goes back to the owner, who lets go of it after taking this under
        // the lock: an edit of the owner's that finds a container no longer shared (and edits
        // it in place, ``JSON/editObject(_:)``) then comes after this thread's reads by the
        // lock, not only by the reference count (which ThreadSanitizer does not see).
        packed.append(Packed(root: job.root, base: job.base, applied: job.applied, state: state, spent: job.state))
        busy = false
        condition.broadcast()
      }
      condition.unlock()
    }
  }
}
