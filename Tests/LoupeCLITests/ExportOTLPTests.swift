import Foundation
import LoupeCore
import Testing
@testable import LoupeCLI

/// The OTLP/JSON mapping (CONTRACT §15) on small traces, compared byte for byte.
@Suite struct ExportOTLPTests {
  static let header = TraceHeader(program: "Tiny", pid: 42, startedAt: "2026-01-01T00:00:00.000Z")

  /// Two stores; an action that changes state and starts an effect; an action in the other
  /// store that cancels it.
  static let events: [Event] = [
    Event(seq: 1, time: 0, payload: .storeCreated(StoreCreated(store: "A#1", type: "A", parent: nil, identity: "A#1"))),
    Event(seq: 2, time: 0.5, payload: .storeCreated(StoreCreated(store: "B#1", type: "B", parent: "A#1", identity: "B#1"))),
    Event(
      seq: 3, time: 1,
      payload: .actionReceived(ActionReceived(store: "A#1", action: "A.Action.start", value: .null, origin: .send, source: CodeLocation(file: "App/A.swift", line: 7)))),
    Event(
      seq: 4, time: 1.25,
      payload: .stateChanged(StateChanged(store: "A#1", cause: 3, changes: [Change(path: "count", op: .replace, old: 0, new: 1)], summary: "A#1: _count changed."))),
    Event(seq: 5, time: 1.5, payload: .effectStarted(EffectStarted(store: "A#1", effect: 1, cause: 3, cancelID: "timer"))),
    Event(seq: 6, time: 3, payload: .actionReceived(ActionReceived(store: "B#1", action: "B.Action.stop", value: .null, origin: .send))),
    Event(
      seq: 7, time: 3.5,
      payload: .effectCancelled(EffectCancelled(store: "A#1", effect: 1, cancelID: "timer", reason: .cancel, by: .init(store: "B#1", cause: 6)))),
  ]

  static func export(_ events: [Event], maximumSpans: Int = 1024) -> [String] {
    var exporter = OTLPExporter(header: header, maximumSpans: maximumSpans)
    for event in events { exporter.add(event) }
    exporter.finish()
    return exporter.takeRequests().map { String(decoding: $0.body, as: UTF8.self) }
  }

  @Test func aSmallRunAsOneRequest() {
    let lines = Self.export(Self.events)
    #expect(lines.count == 1)
    Fixtures.expectGolden(lines.joined(separator: "\n") + "\n", "export-tiny.otlp.jsonl")
  }

  @Test func idsAreDerivedFromTheHeader() {
    let identity = ExportIdentity(header: Self.header)
    #expect(identity.traceID == ExportIdentity(header: Self.header).traceID)
    #expect(identity.traceID.count == 32)
    #expect(identity.traceID != ExportIdentity(header: Self.header, occurrence: 1).traceID)
    #expect(ExportIdentity.hex(identity.id(.action, 3)).count == 16)
    #expect(identity.id(.action, 3) != identity.id(.effect, 3))
    #expect(identity.id(.store, "A#1") != identity.id(.store, "B#1"))
    #expect(Self.export(Self.events) == Self.export(Self.events))
  }

  @Test func startTimesParse() {
    #expect(ExportIdentity.unixNanos(iso8601: "1970-01-01T00:00:00.000Z") == 0)
    #expect(ExportIdentity.unixNanos(iso8601: "2026-11-22T03:33:35.266Z") == 1_795_318_415_266_000_000)
    #expect(ExportIdentity.unixNanos(iso8601: "2000-02-29T12:00:00Z") == 951_825_600_000_000_000)
    #expect(ExportIdentity.unixNanos(iso8601: "2000-02-29T13:30:00+01:30") == 951_825_600_000_000_000)
    #expect(ExportIdentity.unixNanos(iso8601: "yesterday") == nil)
    let identity = ExportIdentity(header: Self.header)
    #expect(identity.nanos(1.5) == identity.startNanos + 1_500_000)
  }

  @Test func requestsAreBoundedBySpansAndBytes() {
    var many: [Event] = [Self.events[0]]
    for n in 0..<10 {
      many.append(Event(seq: 100 + n, time: Double(n), payload: .actionReceived(ActionReceived(store: "A#1", action: "A.Action.tick", value: .int(n), origin: .send))))
    }
    // 10 actions, the store and the run: 12 spans, 5 to a request.
    #expect(Self.export(many, maximumSpans: 5).map { $0.components(separatedBy: #""spanId""#).count - 1 } == [5, 5, 2])
    var exporter = OTLPExporter(header: Self.header, maximumBytes: 2000)
    for event in many { exporter.add(event) }
    exporter.finish()
    let requests = exporter.takeRequests()
    #expect(requests.count > 1)
    #expect(requests.allSatisfy { $0.body.count <= 2000 })
    #expect(requests.map(\.spans).reduce(0, +) == 12)
  }

  @Test func aFailedEffectIsAnError() {
    let lines = Self.export([
      Self.events[0], Self.events[2],
      Event(seq: 5, time: 1.5, payload: .effectStarted(EffectStarted(store: "A#1", effect: 1, cause: 3, cancelID: nil))),
      Event(seq: 6, time: 2, payload: .effectFinished(EffectFinished(store: "A#1", effect: 1, outcome: .failed, error: "URLError(-1009)"))),
    ])
    #expect(lines[0].contains(#""name":"effect of A.Action.start""#))
    #expect(lines[0].contains(#""status":{"message":"URLError(-1009)","code":2}"#))
  }
}
