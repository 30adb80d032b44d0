import Foundation
import Loupe

/// `--state-log FILE`: after the scenario starts and after each step, a `mark` in the session
/// and one line in FILE per store of the scenario, `{"seq": S, "store": ID, "state": …}`: the
/// mark's `seq` and the state the store holds at that moment, rendered the way the store
/// renders it (``ValueRenderer`` with the session's options). It is what `loupe state TRACE
/// --store ID --at S --format json` must print for a recording of the run: the end-to-end
/// tests of CONTRACT §10 compare the two.
///
/// Without a session (nothing records or listens) there is no `seq` to name, and nothing is
/// written.
@MainActor
final class StateLog {
  private let handle: FileHandle
  private let bus: EventBus
  private var step = 0

  init(path: String, bus: EventBus) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
    handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    self.bus = bus
  }

  /// Marks this moment and writes the state of `scenario`'s stores.
  func record(_ scenario: some Scenario) {
    guard bus.isActive else { return }
    step += 1
    let seq = bus.emit(.mark(Mark(label: "state-log \(step)")))
    var text = ""
    for (store, state) in scenario.inspectedStores {
      let line: JSON = ["seq": .int(seq), "store": .string(store), "state": ValueRenderer.render(state(), options: bus.renderOptions)]
      text += line.jsonText + "\n"
    }
    try? handle.write(contentsOf: Data(text.utf8))
  }

  deinit { try? handle.close() }
}
