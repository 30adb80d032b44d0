import Foundation
import Loupe
import Testing
@testable import LoupeSession

/// A trace file read in full with core's `TraceReader`, checked to be whole.
struct TraceFile {
  var header: TraceHeader
  var events: [Event]

  /// Reads `path`; records an issue when the trace is truncated or has malformed lines.
  init(path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let reader = try TraceReader(path: path)
    header = reader.header
    events = []
    while let item = try reader.next() {
      if let event = item.event { events.append(event) }
    }
    #expect(reader.truncation == nil, "truncated: \(String(describing: reader.truncation))", sourceLocation: sourceLocation)
    #expect(reader.malformedLines.isEmpty, "malformed: \(reader.malformedLines)", sourceLocation: sourceLocation)
  }

  func payloads<T>(_ extract: (Event.Payload) -> T?) -> [T] { events.compactMap { extract($0.payload) } }

  var created: [StoreCreated] { payloads { if case .storeCreated(let e) = $0 { e } else { nil } } }
  var destroyed: [StoreDestroyed] { payloads { if case .storeDestroyed(let e) = $0 { e } else { nil } } }
  var identities: [IdentityChanged] { payloads { if case .identityChanged(let e) = $0 { e } else { nil } } }
  var stateChanges: [StateChanged] { payloads { if case .stateChanged(let e) = $0 { e } else { nil } } }
  var started: [EffectStarted] { payloads { if case .effectStarted(let e) = $0 { e } else { nil } } }
  var finished: [EffectFinished] { payloads { if case .effectFinished(let e) = $0 { e } else { nil } } }
  var cancelled: [EffectCancelled] { payloads { if case .effectCancelled(let e) = $0 { e } else { nil } } }
  var derived: [DerivedRecomputed] { payloads { if case .derivedRecomputed(let e) = $0 { e } else { nil } } }
  var warnings: [Warning] { payloads { if case .warning(let e) = $0 { e } else { nil } } }

  /// Effects started and neither finished nor cancelled.
  var effectsLeftRunning: Set<Int> {
    Set(started.map(\.effect)).subtracting(finished.map(\.effect)).subtracting(cancelled.map(\.effect))
  }
}
