import Foundation
import LoupeSession

/// `swift run loupe demo` builds `loupe` only; `loupe-examples` is another product of the same
/// package. When this `loupe` was built by SwiftPM in a package (it runs from
/// `PACKAGE/.build/…/debug`), `demo` builds `loupe-examples` there the same way, once.
struct ExamplesBuild {
  /// The package directory (the one holding `.build`).
  var package: String
  /// `debug` or `release`: the configuration `loupe` was built in.
  var configuration: String

  /// The package that built the `loupe` in `directory` (symlinks resolved), if any.
  init?(loupeDirectory directory: String) {
    let resolved = URL(fileURLWithPath: directory).resolvingSymlinksInPath()
    let configuration = resolved.lastPathComponent
    guard configuration == "debug" || configuration == "release" else { return nil }
    var scratch = resolved.deletingLastPathComponent()
    while scratch.path != "/", scratch.lastPathComponent != ".build" { scratch = scratch.deletingLastPathComponent() }
    let package = scratch.deletingLastPathComponent().path
    guard scratch.lastPathComponent == ".build", FileManager.default.fileExists(atPath: package + "/Package.swift") else {
      return nil
    }
    self.package = package
    self.configuration = configuration
  }

  /// The `swift` arguments.
  var arguments: [String] {
    ["build", "--package-path", package, "--product", "loupe-examples"] + (configuration == "release" ? ["-c", "release"] : [])
  }

  /// What to type to do it by hand.
  var commandLine: String {
    (["swift"] + arguments).map(DemoCommand.shellQuoted).joined(separator: " ")
  }

  /// Runs `swift build` (found on `PATH`), its output on standard error.
  func run() throws(CommandFailure) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift"] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.standardError
    process.standardError = FileHandle.standardError
    do {
      try process.run()
    } catch {
      throw CommandFailure("Cannot run '\(commandLine)': \(error.localizedDescription)")
    }
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw CommandFailure("Building loupe-examples failed (status \(process.terminationStatus)); '\(commandLine)' shows why.")
    }
  }
}
