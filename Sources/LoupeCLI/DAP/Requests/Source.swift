import Foundation
import LoupeCore

/// `source`: the text of a file a frame names, for editors that ask rather than open the path
/// themselves. Only files the session's events name are served.
extension DAPSession {
  func source(_ request: DAPRequest) throws(DAPError) {
    try requireOpen(request.command)
    guard let source = try request.arguments.nested("source"), let path = try source.string("path") else {
      throw DAPError(.notAvailable, "loupe dap serves only sources with a 'path' (the trace's #filePath).")
    }
    guard model.namesSourcePath(path) else {
      throw DAPError(.notAvailable, "No event of this session comes from \(path).")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw DAPError(.notAvailable, "Cannot read \(path) on this machine (the trace may come from another one).")
    }
    channel.respond(to: request, body: ["content": .string(String(decoding: data, as: UTF8.self)), "mimeType": "text/x-swift"])
  }
}
