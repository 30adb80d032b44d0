import Loupe

/// A feature played by a script: what `loupe-examples SCENARIO` runs.
///
/// A scenario owns its stores. The runner calls ``start()``, then plays ``beats`` in order,
/// over and over, until the time is up, and ends with ``finish()``, which must leave nothing
/// running (timers cancelled, stores ended), so a recorded trace ends clean and `loupe
/// doctor` reports only the pitfall the scenario is about.
@MainActor
protocol Scenario: AnyObject {
  /// Sets the feature up (shows the first screen); returns a line for the narration.
  func start() -> String?
  /// The script, played in a loop. Must not be empty.
  var beats: [Beat] { get }
  /// Tears the feature down.
  func finish()
  /// The scenario's stores and how to read each one's state, for `--state-log` (``StateLog``).
  var inspectedStores: [(id: String, state: () -> Any)] { get }
}

extension Scenario {
  var inspectedStores: [(id: String, state: () -> Any)] { [] }
}

/// One step of a script: the user waits a moment, then does something.
struct Beat {
  /// The wait before the step.
  let pause: Duration
  /// Does the step and returns a line for the narration (`nil`: nothing worth saying).
  let perform: @MainActor () -> String?

  init(after pause: Duration, _ perform: @escaping @MainActor () -> String?) {
    self.pause = pause
    self.perform = perform
  }
}

/// Plays a scenario's script for a while.
@MainActor
enum ScriptRunner {
  /// Starts `scenario`, plays its beats until `duration` has passed on `timeline`, and
  /// finishes it, exactly at `duration`. The narration of each step goes to `narrate` with
  /// the time it happened.
  ///
  /// With `once`, it plays every beat once, whatever the time says — a busy machine that
  /// runs the script late still plays the whole story — then finishes at `duration`, or at
  /// once if the last beat came after it.
  ///
  /// `afterStep` is called after the start and after each step (``StateLog``).
  static func run(
    _ scenario: some Scenario, for duration: Duration, once: Bool = false, idle: Bool = false, on timeline: ScriptTimeline,
    narrate: (@MainActor (Duration, String) -> Void)? = nil, afterStep: (@MainActor () -> Void)? = nil
  ) async {
    let origin = timeline.elapsed
    if let line = scenario.start() { narrate?(.zero, line) }
    afterStep?()
    if idle {
      // No script: the program waits for tools to act on it (`loupe send`, `replay-actions`).
      narrate?(.zero, "idle: no script, waiting for tools (LOUPE_CONTROL=1 lets them send actions)")
      await timeline.wait(duration)
      return scenario.finish()
    }
    let beats = scenario.beats
    precondition(!beats.isEmpty, "A scenario needs at least one beat")
    if once {
      for beat in beats {
        await timeline.wait(beat.pause)
        if let line = beat.perform() { narrate?(timeline.elapsed - origin, line) }
        afterStep?()
      }
      let remaining = duration - (timeline.elapsed - origin)
      if remaining > .zero { await timeline.wait(remaining) }
      return scenario.finish()
    }
    var index = 0
    while true {
      let beat = beats[index % beats.count]
      index += 1
      let remaining = duration - (timeline.elapsed - origin)
      guard beat.pause < remaining else {
        if remaining > .zero { await timeline.wait(remaining) }
        break
      }
      await timeline.wait(beat.pause)
      if let line = beat.perform() { narrate?(timeline.elapsed - origin, line) }
      afterStep?()
    }
    scenario.finish()
  }
}
