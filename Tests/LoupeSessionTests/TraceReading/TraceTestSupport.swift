import Foundation
@testable import LoupeCore

/// A scratch directory removed when the value is released.
final class ScratchDirectory {
  let url: URL

  init() {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-trace-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `bytes` to `name` and returns its path.
  @discardableResult
  func file(_ name: String, _ bytes: some Sequence<UInt8>) -> String {
    let path = path(name)
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }

  func file(_ name: String, text: String) -> String { file(name, Array(text.utf8)) }
}

enum TraceSamples {
  static let header = TraceHeader(program: "PagesDemo", pid: 4242, startedAt: "2026-11-22T10:04:05.123Z")

  /// One event of every kind, in a plausible order.
  static let events: [Event] = [
    Event(seq: 1, time: 0, payload: .sessionStarted(SessionStarted(pid: 4242, program: "PagesDemo", startedAt: "2026-11-22T10:04:05.123Z"))),
    Event(seq: 2, time: 0.25, payload: .storeCreated(StoreCreated(store: "AppFeature#1", type: "AppFeature", parent: nil, identity: "AppFeature#1"))),
    Event(seq: 3, time: 1.5, payload: .actionReceived(ActionReceived(store: "AppFeature#1", action: "AppFeature.Action.addPageTapped", value: .null, origin: .send))),
    Event(seq: 4, time: 1.75, payload: .stateChanged(StateChanged(store: "AppFeature#1", cause: 3, changes: [Change(path: "pages[id: 2]", op: .insert, new: ["count": 0], index: 1)], summary: "AppFeature#1: _pages changed."))),
    Event(seq: 5, time: 2, payload: .identityChanged(IdentityChanged(store: "AppFeature#1/pages[id: 2]", identity: "PageFeature@2", previous: nil, reason: .inserted))),
    Event(seq: 6, time: 2.5, payload: .effectStarted(EffectStarted(store: "AppFeature#1/pages[id: 2]", effect: 1, cause: 3, cancelID: "timer"))),
    Event(seq: 7, time: 3, payload: .derivedRecomputed(DerivedRecomputed(store: "AppFeature#1", derived: "total", cause: 3, outputChanged: false, durationNs: 1200))),
    Event(seq: 8, time: 4, payload: .mark(Mark(label: "swipe — ünïcode"))),
    Event(seq: 9, time: 5, payload: .effectCancelled(EffectCancelled(store: "AppFeature#1/pages[id: 2]", effect: 1, cancelID: "timer", reason: .cancel, by: .init(store: "AppFeature#1/pages[id: 3]", cause: 8)))),
    Event(seq: 10, time: 6, payload: .effectFinished(EffectFinished(store: "AppFeature#1", effect: 2, outcome: .failed, error: "timeout"))),
    Event(seq: 11, time: 7, payload: .dropped(Dropped(count: 3))),
    Event(seq: 12, time: 8, payload: .warning(Warning(code: "sendToEndedStore", message: "sent to an ended store", store: "AppFeature#1/pages[id: 2]"))),
    Event(seq: 13, time: 9, payload: .storeDestroyed(StoreDestroyed(store: "AppFeature#1/pages[id: 2]", identity: "PageFeature@2"))),
    Event(seq: 14, time: 10, payload: .unknown(kind: "future.thing", fields: ["store": "AppFeature#1", "extra": [1, 2]])),
  ]

  /// The bytes of a trace of ``events`` as the writer writes it, with `lineEnding` between lines.
  static func traceBytes(_ events: [Event] = events, lineEnding: String = "\n") -> [UInt8] {
    var text = header.jsonText + lineEnding
    for event in events { text += event.jsonText + lineEnding }
    return Array(text.utf8)
  }
}

