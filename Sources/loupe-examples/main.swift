import LoupeExamples

// Hidden scenario used by the protocol's end-to-end tests (see ProbeScenario.swift).
if CommandLine.arguments.dropFirst().first == "probe" {
  ProbeScenario.main(Array(CommandLine.arguments.dropFirst(2)))
}
