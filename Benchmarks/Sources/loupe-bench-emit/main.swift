import BenchFixtures
import Foundation
import Loupe
import Synchronization

// loupe-bench-emit: the program side of the whole-process benchmarks (Benchmarks/scripts/).
//
//   loupe-bench-emit emit --events N [--rate R] [--wait-go] [--report FILE]
//       Turns the inspector on from the environment (LOUPE=stdio, LOUPE=unix:PATH) as any
//       program's first store would, then emits N events of a typical mix straight into the
//       session's bus, as fast as it can or paced at R events per second. With --wait-go it
//       first waits for a client's `loupe/mark` labelled `bench:go`. Writes what it measured
//       (events, seconds, resident memory before and at peak) as JSON to FILE.
//
//   loupe-bench-emit trace --events N [--snapshot-every A] FILE
//       Writes a trace file of N events of the same mix (for `loupe show` against jq). With
//       --snapshot-every A, the root store `AppFeature#1` is snapshotted when the trace starts
//       and then before the first action after every A of its tree's actions (CONTRACT §10's
//       default policy is 1000), each `state.snapshot` a state of the size the store would
//       render: its pages so far, capped at the renderer's 1,000 elements (`truncated` then).
//
//   loupe-bench-emit send-loop --iterations N [--samples K]
//       Sends N actions to a store with no sink attached, K times (after one warm-up round),
//       and prints the nanoseconds per send of each round as JSON. Built twice by
//       scripts/send_idle.py, once with -D LOUPE_NO_INSTRUMENTATION, to compare an idle store
//       with the same store with its instrumentation compiled out.

let usage = """
  USAGE: loupe-bench-emit emit --events N [--rate R] [--wait-go] [--report FILE] [--value-bytes B]
         loupe-bench-emit trace --events N [--snapshot-every A] FILE
         loupe-bench-emit send-loop --iterations N [--samples K]
  """

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("loupe-bench-emit: \(message)\n\(usage)\n".utf8))
  exit(2)
}

/// Resident memory from /proc/self/status, in KB: `VmRSS` (now) or `VmHWM` (peak).
func residentKB(_ field: String) -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
  return 0
}

/// Flips when a client's `bench:go` mark arrives.
final class GoSignal: EventSink, Sendable {
  let received = Atomic<Bool>(false)
  func receive(_ event: Event) {
    if case .mark(let mark) = event.payload, mark.label == "bench:go" { received.store(true, ordering: .releasing) }
  }
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail("missing command") }
arguments.removeFirst()
var events = 0
var rate: Double?
var waitGo = false
var report: String?
var positional: [String] = []
var iterations = 0
var valueBytes = 0
var samples = 1
var snapshotEvery = 0
var iterator = arguments.makeIterator()
while let argument = iterator.next() {
  switch argument {
  case "--events": events = Int(iterator.next() ?? "") ?? 0
  case "--rate": rate = Double(iterator.next() ?? "")
  case "--wait-go": waitGo = true
  case "--report": report = iterator.next()
  case "--value-bytes": valueBytes = Int(iterator.next() ?? "") ?? 0
  case "--iterations": iterations = Int(iterator.next() ?? "") ?? 0
  case "--samples": samples = Int(iterator.next() ?? "") ?? 1
  case "--snapshot-every": snapshotEvery = Int(iterator.next() ?? "") ?? 0
  default: positional.append(argument)
  }
}
guard events > 0 || command == "send-loop" else { fail("--events N (N > 0) is required") }

switch command {
case "trace":
  guard let path = positional.first else { fail("trace needs a FILE") }
  let header = TraceHeader(program: "loupe-bench-emit", pid: Int(getpid()), startedAt: "2026-11-22T09:00:00.000Z")
  let writer = try TraceWriter(path: path, header: header)
  var generator = EventMix.Generator()
  var batch: [Event] = []
  batch.reserveCapacity(2_000)
  var seq = 0
  var actions = 0
  var lastAction: Int?
  var pages = 1
  /// `AppFeature#1`'s state as a store renders it: its pages (the mix adds one per cycle),
  /// cut at the renderer's collection cap with its marker.
  func snapshot() -> Event.Payload {
    let cap = RenderOptions.default.maxCollectionCount
    var elements: [JSON] = (1...min(pages, cap)).map { id in
      ["id": .int(id), "count": 3, "isPlaying": false, "elapsed": 0.75]
    }
    if pages > cap { elements.append(.string("… \(pages - cap) more")) }
    return .stateSnapshot(StateSnapshot(
      store: "AppFeature#1", cause: lastAction, state: ["pages": .array(elements), "theme": "light"], truncated: pages > cap))
  }
  while seq < events {
    batch.removeAll(keepingCapacity: true)
    while seq < events && batch.count < 2_000 {
      seq += 1
      let payload = generator.next()
      if snapshotEvery > 0 {
        if seq == 1 || (actions >= snapshotEvery && payload.kind == ActionReceived.kind) {
          batch.append(Event(seq: seq, time: Double(seq) * 0.01, payload: snapshot()))
          actions = 0
          seq += 1
          if seq > events { break }
        }
        if case .actionReceived = payload {
          actions += 1
          lastAction = seq
        }
        if case .stateChanged(let e) = payload, e.store == "AppFeature#1" { pages += 1 }
      }
      batch.append(Event(seq: seq, time: Double(seq) * 0.01, payload: payload))
    }
    try writer.append(batch)
  }
  try writer.close()

case "emit":
  InspectorAutostart.run()
  let bus = EventBus.shared
  // Attached in every run, so runs with and without --wait-go do the same work per event.
  let go = GoSignal()
  bus.attach(go)
  if waitGo {
    while !go.received.load(ordering: .acquiring) { usleep(1_000) }
  }
  var generator = EventMix.Generator()
  let baseKB = residentKB("VmRSS")
  let start = ContinuousClock.now
  let chunk = 500
  var emitted = 0
  while emitted < events {
    let end = min(events, emitted + chunk)
    while emitted < end {
      if valueBytes > 0 {
        // Larger events: every one a state change whose new value is a string of this size
        // (built afresh, as a rendered state would be).
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: valueBytes)
        bytes[valueBytes - 1] = UInt8(ascii: "0") + UInt8(emitted % 10)
        let padding = String(decoding: bytes, as: UTF8.self)
        bus.emit(.stateChanged(StateChanged(
          store: "AppFeature#1", cause: emitted, changes: [Change(path: "text", op: .replace, old: .null, new: .string(padding))],
          summary: "AppFeature#1: _text changed.")))
      } else {
        bus.emit(generator.next())
      }
      emitted += 1
    }
    if let rate {
      // Paced: event i is due at start + i / rate; sleep when ahead of the schedule.
      let due = start + .nanoseconds(Int64(Double(emitted) / rate * 1e9))
      let now = ContinuousClock.now
      if due > now { Thread.sleep(forTimeInterval: Double((due - now).components.attoseconds) / 1e18 + Double((due - now).components.seconds)) }
    }
  }
  let elapsed = ContinuousClock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  let result = """
    {"events":\(events),"seconds":\(seconds),"rssBaseKB":\(baseKB),"rssPeakKB":\(residentKB("VmHWM")),"rssEndKB":\(residentKB("VmRSS"))}
    """
  bus.emit(.mark(Mark(label: "bench:done")))
  if let report {
    _ = FileManager.default.createFile(atPath: report, contents: Data((result + "\n").utf8))
  }
  exit(0)

case "send-loop":
  guard iterations > 0 else { fail("--iterations N (N > 0) is required") }
  let store = Store(initialState: CounterFeature.State(), bus: EventBus(program: "loupe-bench-emit")) { CounterFeature() }
  let actions = CounterFeature.actions
  @MainActor func round(_ n: Int) {
    var index = 0
    for _ in 0..<n {
      store.send(actions[index])
      index = (index + 1) & 3
    }
  }
  var times: [Double] = []
  if samples > 1 { round(iterations) }  // warm-up; none for callgrind's single rounds
  for _ in 0..<samples {
    let start = ContinuousClock.now
    round(iterations)
    let elapsed = ContinuousClock.now - start
    times.append((Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(iterations))
  }
  #if LOUPE_NO_INSTRUMENTATION
    let variant = "compiled-out"
  #else
    let variant = "idle"
  #endif
  print("{\"variant\":\"\(variant)\",\"nsPerSend\":[\(times.map { String($0) }.joined(separator: ","))]}")

default:
  fail("unknown command '\(command)'")
}
