import Foundation
import LoupeRPC
import Testing
@testable import Loupe
@testable import LoupeClient

/// The inspector's own threads yield to the program (they run nice levels below its main
/// thread), and an idle connection costs no thread. Read from `/proc/PID/task` of a real
/// program serving real sockets (Linux: threads have nice values of their own there).
@Suite(.timeLimit(.minutes(2))) struct InspectorThreadTests {
  #if os(Linux)
    /// A thread of the probe: its name (`comm`) and nice value.
    struct ThreadInfo: Equatable {
      var name: String
      var nice: Int
    }

    /// The probe's threads, main thread first.
    func threads(of pid: Int32) -> [ThreadInfo] {
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
      return tasks.compactMap(Int32.init).sorted { ($0 == pid ? 0 : 1, $0) < ($1 == pid ? 0 : 1, $1) }.compactMap { tid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")"), let open = stat.firstIndex(of: "(")
        else { return nil }
        // After "pid (comm) ": field 3 (state) onwards; nice is field 19.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
        return ThreadInfo(name: String(stat[stat.index(after: open)..<close]), nice: nice)
      }
    }

    /// Reads `/proc` until `done` holds for the probe's threads (the program starts and
    /// names them on its own threads), then returns them.
    func threads(of pid: Int32, until done: ([ThreadInfo]) -> Bool) async throws -> [ThreadInfo] {
      var found = threads(of: pid)
      for _ in 0..<400 where !done(found) {
        try await Task.sleep(for: .milliseconds(25))
        found = threads(of: pid)
      }
      return found
    }

    func count(_ name: String, in threads: [ThreadInfo]) -> Int { threads.count { $0.name == name } }

    @Test(arguments: [nil, "3", "10"] as [String?])
    func theInspectorsThreadsRunBelowTheProgram(threadNice: String?) async throws {
      var environment = ["LOUPE_RECORD": Probe.temporaryPath("loupe")]
      if let threadNice { environment["LOUPE_THREAD_NICE"] = threadNice }
      defer { try? FileManager.default.removeItem(atPath: environment["LOUPE_RECORD"]!) }
      let probe = try await Probe.Listening.start(environment: environment)
      let pid = probe.process.processIdentifier
      let watcher = try await probe.connect()
      _ = try await watcher.subscribe(SubscribeRequest(filter: EventFilter(kinds: [Glob("mark")])))
      let found = try await threads(of: pid) { threads in
        ["loupe.accept", "loupe.idle", "loupe.reader", "loupe.writer", "loupe.hub-waker", "loupe.record"].allSatisfy {
          count($0, in: threads) > 0
        }
      }
      let program = try #require(found.first)
      let levels = threadNice.flatMap(Int.init) ?? 0  // off by default
      let inspectors = found.filter { $0.name.hasPrefix("loupe.") }
      #expect(
        Set(inspectors.map(\.name)) == ["loupe.accept", "loupe.idle", "loupe.reader", "loupe.writer", "loupe.hub-waker", "loupe.record"])
      for thread in inspectors {
        #expect(thread.nice == min(19, program.nice + levels), "\(thread.name) runs at nice \(thread.nice), the program at \(program.nice)")
      }
      watcher.askProbeToExit()
      #expect(await probe.waitForExit() == 0)
    }

    /// Regression (issue 16, 500 idle connections delayed the program's timer by ~50 ms, and
    /// still by up to 24 ms when each had a reader thread): a connection that never sends a
    /// byte has no thread of its own — it waits on the one `loupe.idle` thread — and one that
    /// never needs an answer has no writer.
    @Test func idleConnectionsHaveNoThreadsUntilTheySpeak() async throws {
      let probe = try await Probe.Listening.start()
      let pid = probe.process.processIdentifier
      let watcher = try await probe.connect()
      var idle: [Int32] = []
      defer { for fd in idle { close(fd) } }
      for _ in 0..<3 { idle.append(try UnixSocket.connect(to: probe.socketPath)) }
      // Accepted after the three (one accept loop, in order): when it has its answer, they
      // are all being served.
      let client = try LoupeClient.connect(socketPath: probe.socketPath)
      _ = try await client.initialize(clientName: "late")
      let found = try await threads(of: pid) { count("loupe.reader", in: $0) == 2 && count("loupe.writer", in: $0) == 2 }
      #expect(count("loupe.reader", in: found) == 2)  // the watcher's and the late client's
      #expect(count("loupe.writer", in: found) == 2)
      #expect(count("loupe.idle", in: found) == 1)
      // One idle connection speaks at last: it gets a reader (and a writer for its answer).
      let request = FrameEncoder.frame(Array(#"{"jsonrpc":"2.0","id":1,"method":"loupe/stores"}"#.utf8))
      #expect(request.withUnsafeBytes { write(idle[0], $0.baseAddress, $0.count) } == request.count)  // small: one write
      let spoken = try await threads(of: pid) { count("loupe.reader", in: $0) == 3 && count("loupe.writer", in: $0) == 3 }
      #expect(count("loupe.reader", in: spoken) == 3)
      #expect(count("loupe.writer", in: spoken) == 3)
      watcher.askProbeToExit()
      #expect(await probe.waitForExit() == 0)
    }
  #endif
}
