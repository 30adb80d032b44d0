import Foundation
import Testing
@testable import LoupeRPC
@testable import LoupeClient

@Suite(.timeLimit(.minutes(1))) struct LaunchedProgramTests {
  /// A launched program gets the protocol on 0 and 1 and stderr on 2, and nothing else of
  /// this process: an inherited pipe end would keep that pipe open for as long as the program
  /// runs (its reader, elsewhere in this process, would never see the end).
  @Test func aLaunchedProgramInheritsOnlyItsThreeStandardDescriptors() async throws {
    let unrelated = Pipe()  // Foundation's pipes are not close-on-exec
    let stderr = Pipe()
    let client = try LoupeClient.launch(["/bin/sh", "-c", "exec 1>&2; ls /proc/$$/fd"], stderr: stderr.fileHandleForWriting)
    try stderr.fileHandleForWriting.close()
    let listing = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(listing == "0\n1\n2\n")
    #expect(await client.program?.waitForExit() == .exited(0))
    withExtendedLifetime(unrelated) {}
  }

  @Test func pipesAreCloseOnExecFromTheStart() throws {
    let (read, write) = try Posix.makePipe()
    defer {
      close(read)
      close(write)
    }
    #expect(fcntl(read, F_GETFD) & FD_CLOEXEC != 0)
    #expect(fcntl(write, F_GETFD) & FD_CLOEXEC != 0)
  }
}
