import Foundation
import Loupe

/// A recorded or attached `send` on a store holding an `IdentifiedArray` of N rows, one row
/// changed per action, against the same store idle: what listening costs as the state grows.
/// Issue 18's curve: at N = 100,000 the recorded send should cost no more than 3× its cost at
/// N = 10, and at N = 10 no more than 3× an idle send. Judged by instructions (callgrind) on
/// the program's thread, the one that calls `send` (the main thread here): what the program
/// pays per action. The trace writer, a client's queue and the benchmark's reading client
/// work on threads of their own; the row's note gives every thread's count too.
enum RowsSendBenchmarks {
  static let sizes = [10, 1_000, 10_000, 100_000]
  static let smokeSizes = [10, 100]

  static var all: [Benchmark] {
    sizes.flatMap { [recorded($0), attached($0)] }
  }

  struct Row: Equatable, Identifiable, Sendable {
    var id: Int
    var title: String
    var isDone = false
  }

  struct RowsFeature: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row>
      var selection: Int?
    }
    enum Action: Sendable { case toggle(Int) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .toggle(let id): state.rows[id: id]?.isDone.toggle()
      }
      return .none
    }
  }

  static func state(_ count: Int) -> RowsFeature.State {
    RowsFeature.State(rows: IdentifiedArrayOf(uniqueElements: (0..<count).map { Row(id: $0, title: "Row number \($0)") }))
  }

  /// Sends toggles to rows spread over the array (a stride prime to any size used).
  @MainActor static func sendLoop(_ store: Store<RowsFeature.State, RowsFeature.Action>, count: Int) -> Workload {
    var id = 0
    return { n in
      for _ in 0..<n {
        store.send(.toggle(id))
        id = (id + 7_919) % count
      }
    }
  }

  static func size(_ nominal: Int, _ context: BenchContext) -> Int {
    context.smoke ? smokeSizes[min(sizes.firstIndex(of: nominal) ?? 0, 1)] : nominal
  }

  static func recorded(_ nominal: Int) -> Benchmark {
    let id = "send.rows.recorded.\(nominal)"
    return Benchmark(id: id, what: "recorded send, 1 of \(nominal) rows changed, vs idle") { context in
      let count = size(nominal, context)
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-bench-rows-\(getpid())")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let path = directory.appendingPathComponent("rows.loupe").path
      let bus = EventBus(program: "loupe-bench")
      let inspector = Inspector(bus: bus)
      var configuration = inspector.configuration
      configuration.recordQueueCapacity = 1 << 22  // measure the recording, not the dropping
      configuration.recordQueueByteLimit = .max
      inspector.configuration = configuration
      try inspector.start(.record(path))
      let recordedStore = Store(initialState: state(count), bus: bus) { RowsFeature() }
      let idleStore = Store(initialState: state(count), bus: EventBus(program: "loupe-bench")) { RowsFeature() }
      return Pair(
        loupe: sendLoop(recordedStore, count: count), other: sendLoop(idleStore, count: count),
        rows: { comparison in
          defer { try? FileManager.default.removeItem(at: directory) }
          inspector.flush(timeout: .seconds(120))
          inspector.stop()
          let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
          guard !lines.contains(where: { $0.contains("\"kind\":\"dropped\"") }) else {
            throw BenchmarkError("the recording dropped events")
          }
          guard lines.contains(where: { $0.contains("\"kind\":\"state.changed\"") && $0.contains(".isDone") }) else {
            throw BenchmarkError("the recording has no state.changed event of a row")
          }
          return [.timed(
            id, "send recorded to a trace, 1 of \(Format.count(Double(count))) identified rows changed, vs idle", comparison,
            target: nominal == 10 ? .atMost(3) : .reference, note: "\(lines.count - 1) events recorded, none dropped",
            judgeByInstructions: true, threads: .main)]
        })
    }
  }

  static func attached(_ nominal: Int) -> Benchmark {
    let id = "send.rows.attached.\(nominal)"
    return Benchmark(id: id, what: "attached send, 1 of \(nominal) rows changed, vs idle") { context in
      let count = size(nominal, context)
      let socket = FileManager.default.temporaryDirectory.appendingPathComponent("loupe-bench-\(getpid()).sock").path
      unlink(socket)
      let bus = EventBus(program: "loupe-bench")
      let inspector = Inspector(bus: bus)
      try inspector.start(.unix(socket))
      let client = try ReadingClient(socket: socket)
      let attachedStore = Store(initialState: state(count), bus: bus) { RowsFeature() }
      let idleStore = Store(initialState: state(count), bus: EventBus(program: "loupe-bench")) { RowsFeature() }
      return Pair(
        loupe: sendLoop(attachedStore, count: count), other: sendLoop(idleStore, count: count),
        rows: { comparison in
          inspector.stop()
          let received = client.finish()
          unlink(socket)
          guard received.contains("state.changed") else { throw BenchmarkError("the client received no state.changed") }
          return [.timed(
            id, "send with one client attached, 1 of \(Format.count(Double(count))) identified rows changed, vs idle",
            comparison, target: nominal == 10 ? .report(aim: 3) : .reference,
            note: "the client reads every event on a thread of its own", judgeByInstructions: true, threads: .main)]
        })
    }
  }
}

/// A client on the inspector's Unix socket that initializes, subscribes and reads on a
/// thread of its own, discarding what it reads (keeping the first bytes of events to check).
final class ReadingClient: @unchecked Sendable {
  private let fd: Int32
  private let lock = NSLock()
  private var sample = ""
  private var thread: Thread?

  init(socket path: String) throws {
    fd = Foundation.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8)
      for (index, byte) in bytes.enumerated() where index < raw.count - 1 { raw[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { throw BenchmarkError("cannot connect to \(path)") }
    send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"loupe-bench"}}}"#)
    send(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
    send(#"{"jsonrpc":"2.0","id":2,"method":"loupe/subscribe","params":{}}"#)
    // Wait for the subscription's answer, so that every measured send has a subscriber.
    var seen = ""
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !seen.contains(#""id":2"#) {
      let n = read(fd, &buffer, buffer.count)
      guard n > 0 else { throw BenchmarkError("the inspector closed the connection") }
      seen += String(decoding: buffer[0..<n], as: UTF8.self)
    }
    let thread = Thread { [self] in readLoop() }
    self.thread = thread
    thread.start()
  }

  private func send(_ json: String) {
    let message = Array("Content-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8)
    _ = message.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  }

  private func readLoop() {
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { return }
      lock.lock()
      if sample.utf8.count < 100_000 { sample += String(decoding: buffer[0..<min(n, 4_096)], as: UTF8.self) }
      lock.unlock()
    }
  }

  /// Closes the connection and returns the start of what was read.
  func finish() -> String {
    shutdown(fd, Int32(SHUT_RDWR))
    close(fd)
    lock.lock()
    defer { lock.unlock() }
    return sample
  }
}
