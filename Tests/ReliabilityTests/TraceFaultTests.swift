import Foundation
import LoupeCore
import LoupeRPC
import Testing

extension ReliabilitySuites {
  /// Traces written where writing fails — a full disk, a read-only place, a disk that fills up
  /// halfway — and recordings killed halfway. The program is never affected, the failure is
  /// said once, and what was written stays a readable trace of complete events.
  @Suite(.timeLimit(.minutes(3))) struct TraceFaultTests {
    /// `loupe-examples` and `loupe` on PATH, for commands run through a shell.
    var path: String { (BuiltProducts.directory ?? "") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") }

    @Test func loupeRecordToAFullDiskInTheProgram() throws {
      guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
      let run = try ChildProcess.run("loupe-examples", ["probe", "--burst", "3"], environment: ["LOUPE_RECORD": "/dev/full"])
      #expect(run.termination == .exited(0))
      #expect(
        run.stderr == "loupe: LOUPE_RECORD: Cannot record to '/dev/full': Cannot write to '/dev/full': No space left on device.\n")
    }

    @Test func loupeRecordToAReadOnlyPlaceInTheProgram() throws {
      let location = ReadOnlyLocation()
      let run = try ChildProcess.run("loupe-examples", ["probe", "--burst", "3"], environment: ["LOUPE_RECORD": location.path])
      #expect(run.termination == .exited(0))
      #expect(
        run.stderr
          == "loupe: LOUPE_RECORD: Cannot record to '\(location.path)': Cannot open '\(location.path)': \(location.reason).\n")
    }

    @Test func recordingToAReadOnlyPlaceFailsBeforeLaunching() throws {
      let location = ReadOnlyLocation()
      let marker = PrivateDirectory()
      // The "program" would leave a file behind if it ran.
      let run = try ChildProcess.run("loupe", ["record", location.path, "--", "/bin/sh", "-c", "touch '\(marker.file("ran"))'"])
      #expect(run.termination == .exited(3))
      #expect(run.stderr == "Error: Cannot write the recording to '\(location.path)': \(location.reason).\n")
      #expect(!FileManager.default.fileExists(atPath: marker.file("ran")))
    }

    @Test func attachRecordingToAFullDiskStillShowsEverything() throws {
      guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
      let run = try ChildProcess.run(
        "loupe", ["attach", "--format", "changes", "--record", "/dev/full", "--", "loupe-examples", "probe", "--burst", "4"],
        environment: ["PATH": path])
      #expect(run.termination == .exited(3))
      #expect(run.stdout == String(repeating: "Probe#1: _count changed.\n", count: 4))  // the live view is whole
      #expect(run.stderr.contains("loupe: recording stopped: Cannot write to '/dev/full': No space left on device.\n"))
    }

    /// `ulimit -f` makes the disk "full" after 16 KiB (writes fail with EFBIG).
    @Test func aDiskFillingUpDuringLoupeRecordLeavesACompletePrefix() throws {
      let directory = PrivateDirectory()
      let trace = directory.file("t.loupe")
      let run = try ChildProcess.run(
        "/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 16; exec loupe record '\(trace)' -- loupe-examples probe --burst 2000"],
        environment: ["PATH": path])
      #expect(run.termination == .exited(3))
      #expect(run.stderr.contains("loupe: recording stopped: Cannot write to '\(trace)': File too large.\n"))
      let check = try TraceCheck(path: trace)
      #expect(check.truncation == nil)
      #expect(check.malformedLineCount == 0)
      #expect(check.events.count > 20)
      check.expectGapFree()
      let size = (try FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int) ?? 0
      #expect(size <= 16 * 1024)
    }

    @Test func aDiskFillingUpUnderLoupeRecordInTheProgram() throws {
      let directory = PrivateDirectory()
      let trace = directory.file("t.loupe")
      let run = try ChildProcess.run(
        "/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 16; exec loupe-examples probe --burst 2000"],
        environment: ["PATH": path, "LOUPE_RECORD": trace])
      #expect(run.termination == .exited(0))  // the program does not notice
      let check = try TraceCheck(path: trace)
      #expect(check.truncation == nil)
      #expect(check.malformedLineCount == 0)
      #expect(check.events.count > 20)
      check.expectGapFree()
    }

    @Test func theProgramKilledDuringLoupeRecord() throws {
      let directory = PrivateDirectory()
      let trace = directory.file("t.loupe")
      let record = try ChildProcess(
        "loupe", ["record", trace, "--", "loupe-examples", "probe", "--burst", "20000", "--hold"], environment: ["PATH": path])
      defer { record.killIfRunning() }
      try FileGrowth.wait(until: trace, hasAtLeast: 64 << 10)  // recording is under way
      let program = try #require(record.childPIDs.first)
      kill(program, SIGKILL)  // while its burst is being recorded
      let end = try record.finish()
      #expect(end.termination == .exited(128 + SIGKILL))  // the program's status, as a shell gives it
      let check = try TraceCheck(path: trace)
      #expect(check.truncation == nil)
      #expect(check.malformedLineCount == 0)
      #expect(check.events.first?.kind == "session.started")
      check.expectGapFree()
    }

    @Test func loupeRecordKilledLeavesATraceOfCompleteEventsAndTheProgramRunning() throws {
      let directory = PrivateDirectory()
      let trace = directory.file("t.loupe")
      let record = try ChildProcess(
        "loupe", ["record", trace, "--", "loupe-examples", "probe", "--burst", "20000", "--hold"], environment: ["PATH": path])
      defer { record.killIfRunning() }
      try FileGrowth.wait(until: trace, hasAtLeast: 64 << 10)
      let program = try #require(record.childPIDs.first)
      defer { kill(program, SIGKILL) }
      record.signal(SIGKILL)  // loupe dies while writing the burst
      #expect(record.waitForExit(timeout: .seconds(20)) == .signalled(SIGKILL))

      let check = try TraceCheck(path: trace)
      #expect(check.malformedLineCount == 0)  // at most the last line is cut (`truncation`)
      #expect(check.events.first?.kind == "session.started")
      check.expectGapFree()
      #expect(ChildProcess.isRunning(program))  // the program lost its client and goes on
    }
  }
}
