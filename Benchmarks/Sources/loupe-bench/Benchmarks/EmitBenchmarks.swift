import BenchFixtures
import Foundation
import Loupe

/// What serving one client costs the program per event: events of the typical mix, each
/// built afresh as a program builds them, emitted into a bus whose inspector serves one
/// client over a Unix socket (the client reads everything on a thread of its own), against
/// the same events emitted into a bus with no sink (built, then dropped at once). Judged by
/// instructions on the program's thread (issue 18: ≤ 3,000 more per event with one client):
/// its emit and the hub. The note also gives every thread's count: the client's writer
/// thread that filters and encodes, the socket writes — and the reading client's own thread,
/// which is in this process too (its reads and a little bookkeeping).
enum EmitBenchmarks {
  static let all: [Benchmark] = [attached]

  static let attached = Benchmark(id: "emit.attached", what: "per event, one client attached, vs no client") { _ in
    let socket = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-bench-emit-\(getpid()).sock").path
    unlink(socket)
    let bus = EventBus(program: "loupe-bench")
    let inspector = Inspector(bus: bus)
    try inspector.start(.unix(socket))
    let client = try ReadingClient(socket: socket)
    let idleBus = EventBus(program: "loupe-bench")
    var served = EventMix.Generator()
    var dropped = EventMix.Generator()
    return Pair(
      loupe: { n in for _ in 0..<n { bus.emit(served.next()) } },
      other: { n in for _ in 0..<n { idleBus.emit(dropped.next()) } },
      rows: { comparison in
        inspector.stop()
        let received = client.finish()
        unlink(socket)
        guard received.contains("action.received") else { throw BenchmarkError("the client received no events") }
        return [.timed(
          "emit.attached", "emit an event of the mix with one client attached, vs no client", comparison,
          target: .reference, note: "per event; the difference of the two sides is what one client adds",
          judgeByInstructions: true, threads: .main)]
      })
  }
}
