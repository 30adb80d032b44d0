// swift-tools-version: 6.0
import PackageDescription

// Modules, see README "Architecture" (.ci/checks/10-module-imports.sh checks the imports):
//   app side (what an app links; never starts a process, never reads a trace)
//     LoupeCore    – events, JSON, value rendering, diff, filter, event bus, trace writer
//     LoupeRPC     – LSP framing, JSON-RPC 2.0, connections, server, transports
//     Loupe        – Store/: store, reducers, effects, scoped stores, derived values
//                    Inspector/: the in-process inspector (hub, ring buffer, clients, activation)
//   tool side
//     LoupeSession – trace reading and seeking, the session model, the analyses
//     LoupeClient  – the protocol client and the program launcher
//     LoupeCLI     – the `loupe` command: commands, DAP/, MCP/, Replay/, Export/ (never links the store)
//   testing
//     LoupeTesting – TestStore, recorder, assertions, goldens (XCTest and Swift Testing)
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
]

let package = Package(
  name: "Loupe",
  // CONTRACT §14: Observation's floor. Mutex/Atomic (macOS 15 / iOS 18) are replaced by
  // LoupeCore/Platform/Lock.swift and AtomicValues.swift; Int128 rendering is behind availability.
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "Loupe", targets: ["Loupe"]),
    .library(name: "LoupeTesting", targets: ["LoupeTesting"]),
    .executable(name: "loupe", targets: ["loupe"]),
    .executable(name: "loupe-examples", targets: ["loupe-examples"]),
  ],
  targets: [
    .target(name: "LoupeCore", swiftSettings: swiftSettings),
    .target(name: "LoupeRPC", dependencies: ["LoupeCore"], swiftSettings: swiftSettings),
    .target(name: "Loupe", dependencies: ["LoupeCore", "LoupeRPC"], swiftSettings: swiftSettings),
    .target(name: "LoupeSession", dependencies: ["LoupeCore"], swiftSettings: swiftSettings),
    .target(name: "LoupeClient", dependencies: ["LoupeCore", "LoupeRPC", "LoupeSession"], swiftSettings: swiftSettings),
    .target(name: "LoupeTesting", dependencies: ["Loupe", "LoupeSession"], swiftSettings: swiftSettings),
    .target(name: "LoupeCLI", dependencies: ["LoupeCore", "LoupeRPC", "LoupeSession", "LoupeClient"], swiftSettings: swiftSettings),
    .executableTarget(name: "loupe", dependencies: ["LoupeCLI"], swiftSettings: swiftSettings),
    .target(name: "LoupeExamples", dependencies: ["Loupe"], swiftSettings: swiftSettings),
    .executableTarget(name: "loupe-examples", dependencies: ["LoupeExamples"], swiftSettings: swiftSettings),

    .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: swiftSettings),
    .testTarget(name: "LoupeCoreTests", dependencies: ["LoupeCore", "TestSupport"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeSessionTests", dependencies: ["TestSupport", "LoupeSession"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeRPCTests", dependencies: ["TestSupport", "LoupeRPC", "LoupeClient"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeStoreTests", dependencies: ["TestSupport", "Loupe"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeInspectorTests", dependencies: ["TestSupport", "Loupe", "LoupeRPC", "LoupeClient"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeTestingTests", dependencies: ["TestSupport", "LoupeTesting", "LoupeSession"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeCLITests", dependencies: ["TestSupport", "LoupeCLI", "LoupeSession"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeExamplesTests", dependencies: ["TestSupport", "LoupeExamples", "LoupeTesting", "LoupeSession"], swiftSettings: swiftSettings),
    // TCA's example apps (Todos, Search, TicTacToe), reducers and tests ported with as few
    // changes as possible: how close Loupe's spelling is to TCA's (issue 30, docs/store.md).
    .testTarget(name: "TCAExamplesTests", dependencies: ["Loupe", "LoupeTesting"], swiftSettings: swiftSettings),
    // Malformed input, faults and redaction over real processes (`loupe`, `loupe-examples probe`).
    .testTarget(name: "ReliabilityTests", dependencies: ["TestSupport", "Loupe", "LoupeRPC", "LoupeSession", "LoupeClient"], swiftSettings: swiftSettings),
  ]
)
