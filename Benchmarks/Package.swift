// swift-tools-version: 6.0
import PackageDescription

// Loupe's benchmarks: a package of its own, so that the product keeps no dependencies.
// swift-custom-dump is here only to compare against (the diff TCA's `_printChanges()` uses).
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
]

let package = Package(
  name: "LoupeBenchmarks",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "loupe-bench", targets: ["loupe-bench"]),
    .executable(name: "loupe-bench-emit", targets: ["loupe-bench-emit"]),
  ],
  dependencies: [
    .package(name: "Loupe", path: ".."),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
  ],
  targets: [
    .target(name: "BenchFixtures", dependencies: [.product(name: "Loupe", package: "Loupe")], swiftSettings: swiftSettings),
    .executableTarget(
      name: "loupe-bench",
      dependencies: [
        "BenchFixtures",
        .product(name: "Loupe", package: "Loupe"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        // Built with it, run as processes by the whole-process benchmarks.
        .product(name: "loupe", package: "Loupe"),
        "loupe-bench-emit",
      ],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "loupe-bench-emit",
      dependencies: ["BenchFixtures", .product(name: "Loupe", package: "Loupe")],
      swiftSettings: swiftSettings),
  ]
)
