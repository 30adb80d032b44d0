import LoupeCore
import Testing
@testable import LoupeCLI
import LoupeSession

/// The protobuf encoder and the Perfetto packets it writes, byte for byte.
@Suite struct ExportPerfettoTests {
  @Test func wireFormat() {
    var w = ProtobufWriter()
    w.uint(1, 150)
    #expect(w.bytes == [0x08, 0x96, 0x01])  // the protobuf documentation's own example
    w.reset()
    w.int(4, -1)
    #expect(w.bytes == [0x20] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
    w.reset()
    w.string(2, "testing")
    #expect(w.bytes == [0x12, 0x07] + Array("testing".utf8))
    w.reset()
    w.fixed64(47, 0x0102_0304_0506_0708)
    #expect(w.bytes == [0xF9, 0x02, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
    w.reset()
    w.message(3) { $0.uint(1, 150) }
    #expect(w.bytes == [0x1A, 0x03, 0x08, 0x96, 0x01])
    w.reset()
    w.message(1) { inner in inner.string(2, String(repeating: "x", count: 200)) }
    #expect(Array(w.bytes.prefix(5)) == [0x0A, 0xCB, 0x01, 0x12, 0xC8])  // 203 = CB 01, then 200 = C8 01
  }

  @Test func aTrackEventPacket() {
    var w = ProtobufWriter()
    PerfettoPackets.write(
      .init(time: 1000, type: .sliceBegin, track: 7, name: "a", category: "c", flows: [2], terminatingFlows: [3], annotations: [("seq", .int(5))]),
      to: &w)
    #expect(
      w.bytes == [
        0x0A, 0x30,  // Trace.packet, 48 bytes
        0x40, 0xE8, 0x07,  // timestamp 1000
        0x50, 0x01,  // trusted_packet_sequence_id 1
        0x5A, 0x29,  // track_event, 41 bytes
        0x48, 0x01,  // type SLICE_BEGIN
        0x58, 0x07,  // track_uuid 7
        0xBA, 0x01, 0x01, 0x61,  // name "a"
        0xB2, 0x01, 0x01, 0x63,  // categories ["c"]
        0xF9, 0x02, 2, 0, 0, 0, 0, 0, 0, 0,  // flow_ids [2]
        0x81, 0x03, 3, 0, 0, 0, 0, 0, 0, 0,  // terminating_flow_ids [3]
        0x22, 0x07, 0x52, 0x03, 0x73, 0x65, 0x71, 0x20, 0x05,  // debug_annotations {name "seq", int_value 5}
      ])
  }

  @Test func aStoreSeenOnlyInAnIdentityChangeGetsItsTrack() {
    let header = TraceHeader(program: "P", pid: 1, startedAt: "2026-01-01T00:00:00Z")
    var exporter = PerfettoExporter(header: header)
    exporter.add(Event(seq: 1, time: 0, payload: .identityChanged(IdentityChanged(store: "Lone#1", identity: "i1", previous: nil, reason: .created))))
    exporter.finish()
    let bytes = exporter.takeBytes()
    let identity = ExportIdentity(header: header)
    var descriptor = ProtobufWriter()
    PerfettoPackets.write(
      .init(uuid: identity.id(.store, "Lone#1"), parent: identity.id(.run, 0), name: "Lone#1", chronologicalChildren: true), to: &descriptor)
    let expected = descriptor.bytes
    let at = (0...(bytes.count - expected.count)).first { Array(bytes[$0..<($0 + expected.count)]) == expected }
    #expect(at != nil)  // described, before its identity change
    #expect(at.map { $0 + expected.count < bytes.count } == true)
  }

  @Test func seed000HasAFlowForEveryCause() throws {
    let reader = try TraceReader(path: Fixtures.path("../../LoupeTestingTests/Fixtures/pages-shared-cancellation.loupe"))
    var exporter = PerfettoExporter(header: reader.header)
    var starts = 0
    var sends = 0
    var cancels = 0
    while let item = try reader.next(), let event = item.event {
      exporter.add(event)
      switch event.payload {
      case .effectStarted: starts += 1
      case .actionReceived(let e) where e.effect != nil: sends += 1
      case .effectCancelled(let e) where e.by != nil: cancels += 1
      default: break
      }
    }
    exporter.finish()
    let bytes = exporter.takeBytes()
    // Each flow is written twice, once as flow_ids (field 47) and once as terminating_flow_ids (48).
    let flowTags = zip(bytes, bytes.dropFirst()).filter { $0 == (0xF9, 0x02) }.count
    let endTags = zip(bytes, bytes.dropFirst()).filter { $0 == (0x81, 0x03) }.count
    #expect(cancels > 0)
    #expect(flowTags >= starts + sends + cancels)
    #expect(endTags >= starts + sends + cancels)
  }
}
