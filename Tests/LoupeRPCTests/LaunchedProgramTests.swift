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

  /// `loupe attach -- sh -c "trap '' TERM; …; sleep 600"`: the shell ignores SIGTERM, so
  /// SIGKILL ends it, and the `sleep` it started must end with it rather than keep running
  /// (holding loupe's pipes). The program runs in a process group of its own, which `stop`
  /// ends as a whole.
  @Test func stoppingAProgramEndsWhatItStartedToo() async throws {
    let stderr = Pipe()
    let client = try LoupeClient.launch(
      ["/bin/sh", "-c", "trap '' TERM; sleep 600 2>/dev/null & echo $! >&2; exec 2>&-; wait"], stderr: stderr.fileHandleForWriting)
    try stderr.fileHandleForWriting.close()
    let text = await Self.readToEnd(stderr.fileHandleForReading)
    let sleeper = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(Self.isAlive(sleeper))
    let program = try #require(client.program)
    let stopped = await program.stop(grace: .milliseconds(50))
    #expect(stopped.killed)
    // SIGKILL is delivered asynchronously: give the kernel up to 10 s to end the sleep.
    let deadline = ContinuousClock.now + .seconds(10)
    while Self.isAlive(sleeper), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    #expect(!Self.isAlive(sleeper), "the program's child \(sleeper) outlived it")
  }

  /// Alive: its /proc entry exists and is not a zombie.
  private static func isAlive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
  }

  /// Reads a pipe to its end on a thread of its own (never on a cooperative thread).
  private static func readToEnd(_ handle: FileHandle) async -> String {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)) }.start()
    }
  }
}
