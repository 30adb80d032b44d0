// swift-tools-version: 6.0
import PackageDescription

// Layers (bottom to top), see README "Architecture":
//   LoupeCore  – events, JSON, value rendering, diff, filter, trace files (Foundation only)
//   LoupeRPC   – LSP framing, JSON-RPC 2.0, connections, server and client
//   Loupe      – Store/: Store, reducers, effects, scoped stores, derived values
//                Inspector/: the in-process inspector (hub, ring buffer, clients, activation)
//                The store reaches the inspector only through EventBus and one autostart hook,
//                so creating the first store turns the inspector on from LOUPE=… by itself.
//   LoupeTesting – assertions on diagnostic streams (XCTest and Swift Testing)
//   LoupeCLI   – the `loupe` command (speaks the protocol, reads traces; never links the store)
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
]

let package = Package(
  name: "Loupe",
  platforms: [.macOS(.v15)],
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
    .target(name: "LoupeTesting", dependencies: ["Loupe"], swiftSettings: swiftSettings),
    .target(name: "LoupeCLI", dependencies: ["LoupeCore", "LoupeRPC"], swiftSettings: swiftSettings),
    .executableTarget(name: "loupe", dependencies: ["LoupeCLI"], swiftSettings: swiftSettings),
    .target(name: "LoupeExamples", dependencies: ["Loupe"], swiftSettings: swiftSettings),
    .executableTarget(name: "loupe-examples", dependencies: ["LoupeExamples"], swiftSettings: swiftSettings),

    .testTarget(name: "LoupeCoreTests", dependencies: ["LoupeCore"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeRPCTests", dependencies: ["LoupeRPC"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeStoreTests", dependencies: ["Loupe"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeInspectorTests", dependencies: ["Loupe", "LoupeRPC"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeTestingTests", dependencies: ["LoupeTesting"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeCLITests", dependencies: ["LoupeCLI"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
    .testTarget(name: "LoupeExamplesTests", dependencies: ["LoupeExamples", "LoupeTesting"], swiftSettings: swiftSettings),
    // TCA's example apps (Todos, Search, TicTacToe), reducers and tests ported with as few
    // changes as possible: how close Loupe's spelling is to TCA's (issue 30, docs/store.md).
    .testTarget(name: "TCAExamplesTests", dependencies: ["Loupe", "LoupeTesting"], swiftSettings: swiftSettings),
    // Malformed input, faults and redaction over real processes (`loupe`, `loupe-examples probe`).
    .testTarget(name: "ReliabilityTests", dependencies: ["Loupe", "LoupeRPC"], swiftSettings: swiftSettings),
  ]
)
