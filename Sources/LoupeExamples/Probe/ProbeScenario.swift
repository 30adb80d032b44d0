import Dispatch
import Foundation
import Loupe
import Synchronization

/// `loupe-examples probe`: a hidden scenario the protocol's end-to-end tests drive.
///
/// It plays a tiny store, `Probe#1` (state `{count, items, settings}`), emitting its events
/// straight onto ``EventBus/shared`` and answering `loupe/state` through its own directory. A
/// client steers it with `loupe/mark` labels (so the same commands work over stdio and
/// sockets):
///
/// | mark label | effect |
/// |---|---|
/// | `probe:tick` | one `action.received` + `state.changed` (count += 1) |
/// | `probe:burst N` | N ticks as fast as possible, then mark `probe:burst-done ms=… rssKB=…` |
/// | `probe:print TEXT` | `print(TEXT)` — must reach stderr, never the protocol |
/// | `probe:echo TEXT` | mark `echo TEXT`, once every earlier command has run |
/// | `probe:exit` | mark `probe:bye`, then exit 0 |
///
/// Options: `--burst N` (ticks at startup), `--hold` (stay until `probe:exit`),
/// `--seconds S` (the longest it lives, default 60), `--also-listen PATH` (a Unix socket
/// besides what `LOUPE` says), `--client SOCKET` (be a client instead, see ``ProbeClient``). Once the inspector is up it writes `probe: ready` to fd 1
/// (stderr under `LOUPE=stdio`), so a test can wait for it without sleeping; likewise
/// `probe: burst-done` after each burst.
public enum ProbeScenario {
  public static func main(_ arguments: [String]) -> Never {
    var burst = 0
    var hold = false
    var seconds = 60.0
    var alsoListen: String?
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--burst": burst = Int(iterator.next() ?? "") ?? 0
      case "--hold": hold = true
      case "--seconds": seconds = Double(iterator.next() ?? "") ?? seconds
      case "--also-listen": alsoListen = iterator.next()
      case "--client": ProbeClient.run(socketPath: iterator.next() ?? "")
      default:
        FileHandle.standardError.write(Data("probe: unknown argument \(argument)\n".utf8))
        exit(2)
      }
    }
    let probe = ProbeStore(bus: .shared)
    InspectorAutostart.run()
    if let alsoListen {
      do {
        try Inspector.start(.unix(alsoListen))
      } catch {
        FileHandle.standardError.write(Data("probe: \(error)\n".utf8))
        exit(1)
      }
    }
    probe.bus.directory = probe
    probe.bus.attach(ProbeCommands(probe: probe))
    probe.created()
    FileHandle.standardOutput.write(Data("probe: ready\n".utf8))
    probe.burst(burst)
    if hold {
      _ = probe.exitSignal.wait(timeout: .now() + seconds)
    }
    probe.bus.emit(.mark(Mark(label: "probe:bye")))
    exit(0)
  }
}

/// The probe's pretend store.
final class ProbeStore: StoreDirectory, Sendable {
  static let id = "Probe#1"
  let bus: EventBus
  let count = Mutex(0)
  let exitSignal = DispatchSemaphore(value: 0)
  let commands = DispatchQueue(label: "probe.commands")

  init(bus: EventBus) { self.bus = bus }

  func created() {
    bus.emit(.storeCreated(StoreCreated(store: Self.id, type: "Probe", parent: nil, identity: "Probe#1@1")))
  }

  func tick() {
    let n = count.withLock { count in
      count += 1
      return count
    }
    let cause = bus.emit(.actionReceived(ActionReceived(store: Self.id, action: "Probe.Action.tick", value: ["n": .int(n)], origin: .send)))
    bus.emit(
      .stateChanged(
        StateChanged(
          store: Self.id, cause: cause, changes: [Change(path: "count", op: .replace, old: .int(n - 1), new: .int(n))],
          summary: "\(Self.id): _count changed.")))
  }

  func burst(_ n: Int) {
    guard n > 0 else { return }
    let start = ContinuousClock.now
    for _ in 0..<n { tick() }
    let ms = (ContinuousClock.now - start) / .milliseconds(1)
    bus.emit(.mark(Mark(label: "probe:burst-done ms=\(Int(ms)) rssKB=\(Self.peakResidentKB())")))
    FileHandle.standardOutput.write(Data("probe: burst-done\n".utf8))
  }

  /// Peak resident memory (VmHWM), in KB.
  static func peakResidentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
  }

  // MARK: StoreDirectory

  func liveStores() -> [StoreInfo] {
    [StoreInfo(id: Self.id, type: "Probe", parent: nil, identity: "Probe#1@1")]
  }

  func state(of store: String, path: StatePath?) async throws(StateQueryError) -> (seq: Int, state: JSON) {
    guard store == Self.id else { throw .unknownStore(store) }
    let n = count.withLock { $0 }
    let state: JSON = [
      "count": .int(n),
      "items": [["id": 1, "title": "milk"], ["id": 2, "title": "eggs"]],
      "settings": ["theme": "dark"],
    ]
    let seq = bus.lastSeq
    guard let path else { return (seq, state) }
    var value = state
    for component in path.components {
      let next: JSON?
      switch component {
      case .field(let name), .key(let name): next = value[name]
      case .index(let index):
        let array = value.arrayValue ?? []
        next = index < array.count ? array[index] : Optional<JSON>.none
      case .id(let id): next = value.arrayValue?.first { $0["id"] == id }
      }
      guard let next else { throw .noValueAtPath(store: store, path: path.description) }
      value = next
    }
    return (seq, value)
  }
}

/// Watches for `probe:` marks and runs them on the probe's own queue (a sink must not emit).
final class ProbeCommands: EventSink, Sendable {
  let probe: ProbeStore
  init(probe: ProbeStore) { self.probe = probe }

  func receive(_ event: Event) {
    guard case .mark(let mark) = event.payload, mark.label.hasPrefix("probe:") else { return }
    let words = mark.label.dropFirst(6).split(separator: " ", maxSplits: 1).map(String.init)
    let probe = self.probe
    switch words.first {
    case "tick": probe.commands.async { probe.tick() }
    case "burst": probe.commands.async { probe.burst(Int(words.dropFirst().first ?? "") ?? 0) }
    case "print":
      probe.commands.async {
        print(words.dropFirst().first ?? "")
        fflush(nil)  // all C streams: the text must leave the process before any kill
      }
    case "echo":
      // Marked from the command queue: proves every earlier command has run.
      probe.commands.async { probe.bus.emit(.mark(Mark(label: "echo " + (words.dropFirst().first ?? "")))) }
    case "exit": probe.commands.async { probe.exitSignal.signal() }
    default: return
    }
  }
}
