import Dispatch
import LoupeCore

/// Runs the jobs of the effects of stores on a ``TestClock`` on the main queue, one at a
/// time in the order they were enqueued: the same queue the main actor runs on, so an
/// effect's code, the store's processing and the test never run at the same time, and the
/// order of wake-ups is the order of events.
///
/// Each test clock has its own, which counts the jobs enqueued and run: an effect with a job
/// enqueued and not yet run has work to do (see ``TestClock/effectProgress``).
final class MainQueueTaskExecutor: TaskExecutor {
  private let counts = Lock(Counts())

  struct Counts: Equatable {
    var enqueued = 0
    var ran = 0
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    counts.withLock { $0.enqueued += 1 }
    DispatchQueue.main.async {
      job.runSynchronously(on: executor)
      self.counts.withLock { $0.ran += 1 }
    }
  }

  /// The jobs enqueued so far and those of them that have run (until they suspended or ended).
  var jobCounts: Counts { counts.withLock { $0 } }
}
