import Dispatch

/// Runs the jobs of the effects of stores on a ``TestClock`` on the main queue, one at a
/// time in the order they were enqueued: the same queue the main actor runs on, so an
/// effect's code, the store's processing and the test never run at the same time, and the
/// order of wake-ups is the order of events.
final class MainQueueTaskExecutor: TaskExecutor {
  static let shared = MainQueueTaskExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    DispatchQueue.main.async { job.runSynchronously(on: executor) }
  }
}
