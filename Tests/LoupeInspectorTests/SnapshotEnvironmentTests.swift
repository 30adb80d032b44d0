import Foundation
import Testing
@testable import Loupe

/// `LOUPE_SNAPSHOT_ACTIONS` and `LOUPE_SNAPSHOT_BYTES` set the shared bus's snapshot policy.
@Suite struct SnapshotEnvironmentTests {
  @Test func bothTriggersComeFromTheEnvironment() {
    let inspector = Inspector(bus: EventBus(program: "test"))
    #expect(inspector.bus.snapshotPolicy == .default)
    let problems = InspectorAutostart.activate(
      ["LOUPE_SNAPSHOT_ACTIONS": " 250 ", "LOUPE_SNAPSHOT_BYTES": "65_536"], inspector: inspector)
    #expect(problems.isEmpty)
    #expect(inspector.bus.snapshotPolicy == SnapshotPolicy(actions: 250, bytes: 65_536))
    #expect(InspectorAutostart.activate(["LOUPE_SNAPSHOT_BYTES": "0"], inspector: inspector).isEmpty)
    #expect(inspector.bus.snapshotPolicy == SnapshotPolicy(actions: 250, bytes: 0))
  }

  @Test func aBadValueIsReportedAndIgnored() {
    let inspector = Inspector(bus: EventBus(program: "test"))
    let problems = InspectorAutostart.activate(
      ["LOUPE_SNAPSHOT_ACTIONS": "often", "LOUPE_SNAPSHOT_BYTES": "-1"], inspector: inspector)
    #expect(problems == [
      "ignoring LOUPE_SNAPSHOT_ACTIONS=often (expected a whole number from 0 to 1000000000; 0 turns it off)",
      "ignoring LOUPE_SNAPSHOT_BYTES=-1 (expected a whole number from 0 to 1000000000; 0 turns it off)",
    ])
    #expect(inspector.bus.snapshotPolicy == .default)
  }
}
