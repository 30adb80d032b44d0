import Foundation
import LoupeCore

/// `source`: the text of a file a frame names, for editors that ask rather than open the path
/// themselves. Only files the session's events name are served.
extension DAPSession {
  func source(_ request: DAPRequest) throws(DAPError) {
    try requireOpen(request.command)
    let source = try request.arguments.nested("source")
    var reference = try request.arguments.int("sourceReference")
    if let nested = try source?.int("sourceReference") { reference = nested }
    if let reference, reference > 0 {
      guard let text = sources.text(ofReference: reference) else {
        throw DAPError(.unknownReference, "No source \(reference) in this session.")
      }
      channel.respond(to: request, body: ["content": .string(text), "mimeType": "text/x-swift"])
      return
    }
    guard let source, let path = try source.string("path") else {
      throw DAPError(.notAvailable, "loupe dap serves only sources with a 'path' (the trace's #filePath).")
    }
    guard model.namesSourcePath(path) || sources.servesLocally(path) else {
      throw DAPError(.notAvailable, "No event of this session comes from \(path).")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DAPError(.notAvailable, "Cannot read \(path) on this machine (the trace may come from another one).")
    }
    channel.respond(to: request, body: ["content": .string(String(decoding: data, as: UTF8.self)), "mimeType": "text/x-swift"])
  }
}
