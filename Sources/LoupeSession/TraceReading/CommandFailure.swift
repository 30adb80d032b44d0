import LoupeCore

/// A failure while running a command (I/O or protocol): `Error: …`, exit status 3.
package struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
  package var message: String
  package init(_ message: String) { self.message = message }
  package init(_ error: some Error) { message = "\(error)" }
  package var description: String { message }
}
