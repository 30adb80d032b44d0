import Foundation
import LoupeCore
import Loupe

/// The probe's commands about the process's own resources, for the tests and benchmarks of
/// what clients may cost a program (see ``ProbeScenario`` for the others):
///
/// | mark label | effect |
/// |---|---|
/// | `probe:open N` | open `/dev/null` N times at once, then close them all; mark `probe:opened ok=K of=N` |
/// | `probe:exhaust` | open `/dev/null` until no descriptor is left, keep them; mark `probe:exhausted` |
/// | `probe:release` | close what `probe:exhaust` opened; mark `probe:released` |
/// | `probe:rss` | mark `probe:rss kB=…`, the resident memory now (VmRSS) |
/// | `probe:ticker MS` | send `.tick` every MS milliseconds on a fixed schedule (no drift), for good: the program's own timer, whose lateness a benchmark measures |
extension Probe {
  /// Descriptors `probe:exhaust` holds (main actor only).
  @MainActor private static var held: [Int32] = []

  func runResourceCommand(_ command: String, _ argument: String) {
    switch command {
    case "open":
      let n = max(0, Int(argument) ?? 0)
      let opened = (0..<n).map { _ in LibC.openNull() }.filter { $0 >= 0 }
      for fd in opened { LibC.close(fd) }
      mark("probe:opened ok=\(opened.count) of=\(n)")
    case "exhaust":
      while true {
        let fd = LibC.openNull()
        guard fd >= 0 else { break }
        Self.held.append(fd)
      }
      mark("probe:exhausted")
    case "release":
      for fd in Self.held { LibC.close(fd) }
      Self.held = []
      mark("probe:released")
    case "rss" where argument.isEmpty:  // not the answer `probe:rss kB=…`, which would loop
      mark("probe:rss kB=\(Self.residentKB())")
    case "ticker":
      let period = Duration.milliseconds(max(1, Int(argument) ?? 10))
      let store = self.store
      Task { @MainActor in
        let clock = ContinuousClock()
        var next = clock.now
        while true {
          next += period
          try? await clock.sleep(until: next)
          store.send(.tick)
        }
      }
    default:
      return
    }
  }

  private func mark(_ label: String) { EventBus.shared.emit(.mark(Mark(label: label))) }

  /// Resident memory now (VmRSS), in KB.
  static func residentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
  }
}
