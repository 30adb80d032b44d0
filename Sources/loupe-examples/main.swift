import Foundation
import LoupeExamples

// Hidden scenario used by the protocol's end-to-end tests (see ProbeScenario.swift).
if CommandLine.arguments.dropFirst().first == "probe" {
  ProbeScenario.main(Array(CommandLine.arguments.dropFirst(2)))
}
// Hidden scenario used by the rendering zoo's tests (see RenderingZoo.swift).
if CommandLine.arguments.dropFirst().first == "zoo" {
  RenderingZoo.main(Array(CommandLine.arguments.dropFirst(2)))
}

// pages, game, todos: see `loupe-examples --help`.
exit(await ExamplesMain.run(Array(CommandLine.arguments.dropFirst())))
