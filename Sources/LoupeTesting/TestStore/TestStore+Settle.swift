import Dispatch
import Loupe

extension TestStore {
  /// How many passes of the main queue in a row must see no effect do anything before the
  /// effects that still run count as waiting on something outside the store.
  static var idlePassesToSettle: Int { 2 }

  /// Lets the effects run until they have settled, so that what an assertion just saw has had
  /// its consequences (such as an effect ending right after sending the action received).
  /// Counted, never timed: a loaded machine only makes it take longer.
  ///
  /// The effects have settled when every one of them
  /// - has ended, or sleeps on a test clock (it cannot go on until the clock moves), or
  /// - waits on something outside the store — a real timer, another thread, a stream fed from
  ///   elsewhere — with no job of its own queued: the effects' jobs run on the main queue
  ///   (``TestClock``'s executor counts them), so a full pass of the main queue in which no
  ///   effect started, slept, woke, ended, had a job run or enqueued, and the store processed
  ///   no action, shows that none can move before that outside thing answers. Such an effect
  ///   is in flight: `receive` and `finish` wait for it (up to ``timeout``), `send` does not,
  ///   as TCA's does not.
  ///
  /// Two passes in a row must be idle (``idlePassesToSettle``), so that a step an effect takes
  /// on the main actor, which the executor does not count, is seen too.
  func settle() async {
    guard effectsOnTestClock else { return }
    var idlePasses = 0
    var before = progress
    while idlePasses < Self.idlePassesToSettle {
      // Every tracked effect asleep on a test clock or ended: nothing of theirs is queued.
      if before.effects.running == 0 { return }
      await Self.mainQueuePass()
      let after = progress
      idlePasses = after == before && !after.effects.hasQueuedJobs ? idlePasses + 1 : 0
      before = after
    }
  }

  /// What the effects and the store have done so far.
  private var progress: SettleProgress {
    SettleProgress(effects: clock.effectProgress, actions: actionsProcessed)
  }

  /// Returns once the jobs queued on the main thread when it was called have run: those of the
  /// effects' executor (dispatch blocks on the main queue) and those of the main actor (which
  /// the main executor may run apart from dispatch blocks: a block enqueued after a main-actor
  /// job was seen to run before it, so the pass goes through both).
  private static func mainQueuePass() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async { continuation.resume() }
    }
    await Task.yield()
  }
}

private struct SettleProgress: Equatable {
  let effects: EffectProgress
  let actions: Int
}
