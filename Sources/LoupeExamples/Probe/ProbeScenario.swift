import Foundation
import LoupeCore
import Loupe

/// `loupe-examples probe`: a hidden scenario the protocol's end-to-end tests drive.
///
/// It runs one real store, `Probe#1` (a ``ProbeFeature``: state `{count, items, settings}`),
/// whose creation turns the inspector on from `LOUPE=…` like any program's first store. A
/// client steers it with `loupe/mark` labels, so the same commands work over stdio and
/// sockets:
///
/// | mark label | effect |
/// |---|---|
/// | `probe:tick` | send `.tick` (count += 1): `action.received` + `state.changed` |
/// | `probe:burst N` | N ticks as fast as possible, then mark `probe:burst-done ms=… rssKB=…` |
/// | `probe:print TEXT` | `print(TEXT)` — must reach stderr, never the protocol |
/// | `probe:echo TEXT` | mark `echo TEXT`, once every earlier command has run |
/// | `probe:exit` | mark `probe:bye`, then exit (status 0, or `--exit-status`) |
///
/// Options: `--burst N` (ticks at startup), `--hold` (stay until `probe:exit`), `--secret TEXT`
/// (first run a second store full of TEXT, see ``VaultFeature``), `--seconds S` (the longest it
/// lives, default 600: beyond any test's time limit), `--exit-status N` (the status it exits
/// with), `--also-listen PATH` (a Unix socket besides what `LOUPE` says), `--client SOCKET`
/// (be a client instead, see ``ProbeClient``).
/// Once the inspector is up it writes `probe: ready` to fd 1 (stderr under `LOUPE=stdio`), so
/// a test can wait for it without sleeping; likewise `probe: burst-done` after each burst.
public enum ProbeScenario {
  @MainActor
  public static func main(_ arguments: [String]) -> Never {
    var burst = 0
    var hold = false
    var seconds = 600.0
    var alsoListen: String?
    var exitStatus: Int32 = 0
    var secret: String?
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
      switch argument {
      case "--burst": burst = Int(iterator.next() ?? "") ?? 0
      case "--hold": hold = true
      case "--seconds": seconds = Double(iterator.next() ?? "") ?? seconds
      case "--also-listen": alsoListen = iterator.next()
      case "--exit-status": exitStatus = Int32(iterator.next() ?? "") ?? 0
      case "--secret": secret = iterator.next()
      case "--client": ProbeClient.run(socketPath: iterator.next() ?? "")
      default:
        FileHandle.standardError.write(Data("probe: unknown argument \(argument)\n".utf8))
        exit(2)
      }
    }
    let store = Store(initialState: ProbeFeature.State(), name: "Probe#1") { ProbeFeature() }
    if let alsoListen {
      do {
        try Inspector.start(.unix(alsoListen))
      } catch {
        FileHandle.standardError.write(Data("probe: \(error)\n".utf8))
        exit(1)
      }
    }
    let probe = Probe(store: store, exitStatus: exitStatus)
    let proceed = {
      EventBus.shared.attach(ProbeCommands())
      FileHandle.standardOutput.write(Data("probe: ready\n".utf8))
      probe.burst(burst)
      guard hold else { probe.finish() }
      DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { MainActor.assumeIsolated { probe.run("exit", "") } }
      ProbeCommands.probe = probe
    }
    if let secret {
      Task { @MainActor in
        await ProbeVault.run(secret: secret)
        proceed()
      }
    } else {
      proceed()
    }
    dispatchMain()
  }
}

/// The probe's feature: a counter with a little more state to query by path.
struct ProbeFeature: Reducer {
  struct Item: Identifiable, Equatable {
    var id: Int
    var title: String
  }

  struct State: Equatable {
    var count = 0
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, title: "milk"), Item(id: 2, title: "eggs")]
    var settings = ["theme": "dark"]
  }

  enum Action {
    case tick
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tick: state.count += 1
    }
    return .none
  }
}

/// Runs the commands, on the main actor.
@MainActor
final class Probe {
  let store: Store<ProbeFeature.State, ProbeFeature.Action>
  let exitStatus: Int32

  init(store: Store<ProbeFeature.State, ProbeFeature.Action>, exitStatus: Int32) {
    self.store = store
    self.exitStatus = exitStatus
  }

  func run(_ command: String, _ argument: String) {
    switch command {
    case "tick": store.send(.tick)
    case "burst": burst(Int(argument) ?? 0)
    case "print":
      print(argument)
      LibC.flushAllStreams()  // all C streams: the text must leave the process before any kill
    case "echo": EventBus.shared.emit(.mark(Mark(label: "echo " + argument)))
    case "exit": finish()
    default: runResourceCommand(command, argument)
    }
  }

  func burst(_ n: Int) {
    guard n > 0 else { return }
    let start = ContinuousClock.now
    for _ in 0..<n { store.send(.tick) }
    let ms = (ContinuousClock.now - start) / .milliseconds(1)
    EventBus.shared.emit(.mark(Mark(label: "probe:burst-done ms=\(Int(ms)) rssKB=\(Self.peakResidentKB())")))
    FileHandle.standardOutput.write(Data("probe: burst-done\n".utf8))
  }

  func finish() -> Never {
    EventBus.shared.emit(.mark(Mark(label: "probe:bye")))
    exit(exitStatus)
  }

  /// Peak resident memory (VmHWM), in KB.
  static func peakResidentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
  }
}

/// Watches for `probe:` marks and runs them on the main queue (a sink must not act inside
/// `receive`: the bus is locked).
final class ProbeCommands: EventSink, Sendable {
  @MainActor static var probe: Probe?

  func receive(_ event: Event) {
    guard case .mark(let mark) = event.payload, mark.label.hasPrefix("probe:") else { return }
    let words = mark.label.dropFirst(6).split(separator: " ", maxSplits: 1).map(String.init)
    guard let command = words.first else { return }
    let argument = words.count > 1 ? words[1] : ""
    DispatchQueue.main.async {
      MainActor.assumeIsolated { ProbeCommands.probe?.run(command, argument) }
    }
  }
}
