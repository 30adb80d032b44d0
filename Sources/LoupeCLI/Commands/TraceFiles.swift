import Foundation
import LoupeSession

/// The traces named on a command line that reads several runs (`stats`, `doctor`): files as
/// given, and for a directory every `*.loupe` file under it (subdirectories included), sorted
/// by path so the order, and so the output, is the same on every machine.
enum TraceFiles {
  static let argument = PositionalSpec(
    name: "TRACE...", help: "Trace files, or directories of them (*.loupe, searched recursively); '-' for standard input.",
    isRepeated: true)

  static func expand(_ arguments: [String]) throws(CommandFailure) -> [String] {
    var paths: [String] = []
    for argument in arguments {
      var isDirectory: ObjCBool = false
      guard argument != "-", FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue else {
        paths.append(argument)
        continue
      }
      guard let walker = FileManager.default.enumerator(atPath: argument) else {
        throw CommandFailure("Cannot read the directory '\(argument)'.")
      }
      var found: [String] = []
      while let relative = walker.nextObject() as? String {
        if relative.hasSuffix(".loupe") { found.append(argument.hasSuffix("/") ? argument + relative : argument + "/" + relative) }
      }
      guard !found.isEmpty else { throw CommandFailure("No trace files (*.loupe) in '\(argument)'.") }
      paths += found.sorted()
    }
    return paths
  }
}
