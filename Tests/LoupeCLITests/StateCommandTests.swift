import Foundation
import Testing

/// `loupe state` on the fixture traces: exact output, and an error for everything the trace
/// cannot answer that says what is missing.
@Suite struct StateCommandTests {
  let states = Fixtures.path("state.loupe")
  let pages = Fixtures.path("pages.loupe")

  @Test func theWholeStateAtSeveralMoments() async {
    // Right after the first snapshot, after scoped changes (a page's and the detail sheet's,
    // at their paths in the root), from the second snapshot, and at the end (approximate: a
    // change cut short by a cap).
    var text = ""
    for at in ["3", "18", "24", "26"] {
      let run = await loupe("state", states, "--store", "AppFeature#1", "--at", at)
      #expect(run.status == 0)
      #expect(run.stderr == "")
      text += "$ loupe state state.loupe --store AppFeature#1 --at \(at)\n" + run.stdout + "\n"
    }
    Fixtures.expectGolden(text, "state.at.txt")
  }

  @Test func aGlobPrintsEveryMatchingStoreAlive() async {
    // The detail sheet is alive at #18, not at the end.
    let during = await loupe("state", states, "--store", "AppFeature#1/*", "--at", "18")
    #expect(during.status == 0)
    Fixtures.expectGolden(during.stdout, "state.glob.txt")
    let after = await loupe("state", states, "--store", "AppFeature#1/*")
    #expect(after.stdout.components(separatedBy: " right after #26:").count - 1 == 2)
  }

  @Test func atDefaultsToTheLastEvent() async {
    let end = await loupe("state", states, "--store", "AppFeature#1/pages[id: 1]")
    let last = await loupe("state", states, "--store", "AppFeature#1/pages[id: 1]", "--at", "26")
    #expect(end.stdout == last.stdout)
    // The root's state is approximate after #26 (page 2's title was cut short), and so is
    // every scoped store's: the mark is per root.
    #expect(
      end.stdout == """
        AppFeature#1/pages[id: 1] right after #26:
        (approximate: rebuilt from state.snapshot #22, but it or a change after it was cut short by a size cap (truncated) or did not apply: parts may be missing or stale)
        {
          id: 1
          title: "One"
          count: 2
          isVisible: true
          mode: .idle
        }

        """)
  }

  @Test func aPathAndJSON() async {
    let count = await loupe("state", states, "--store", "AppFeature#1", "--at", "9", "--path", "pages[id: 1].count")
    #expect(count.stdout == "AppFeature#1 pages[id: 1].count right after #9:\n1\n")
    let json = await loupe("state", states, "--store", "AppFeature#1", "--at", "18", "--format", "json")
    #expect(json.status == 0)
    #expect(json.stderr == "")
    #expect(
      json.stdout
        == #"{"theme":"dark","settings":{"fontSize":12,"sound":true},"pages":[{"id":1,"title":"One","count":2,"isVisible":true,"mode":"idle"},{"id":2,"title":"Two","count":0,"isVisible":false,"mode":{"playing":{"speed":2,"since":1.5}}}],"detail":{"text":"Hi"}}"#
        + "\n")
    let detail = await loupe("state", states, "--store", "AppFeature#1/detail", "--at", "18", "--format", "json")
    #expect(detail.stdout == #"{"text":"Hi"}"# + "\n")
  }

  @Test func approximateStatesSaySo() async {
    let json = await loupe("state", states, "--store", "AppFeature#1/pages[id: 2]", "--format", "json")
    #expect(json.status == 0)
    #expect(json.stdout == #"{"id":2,"title":"TTTTTTTTTT… (30 more characters)","count":0,"isVisible":true,"mode":{"playing":{"speed":2,"since":1.5}}}"# + "\n")
    #expect(
      json.stderr
        == "warning: the state is approximate: rebuilt from state.snapshot #22, but it or a change after it was cut short by a size cap (truncated) or did not apply: parts may be missing or stale\n"
    )
    // A trace from before snapshots: only what the changes wrote.
    let old = await loupe("state", pages, "--store", "AppFeature#1")
    #expect(old.status == 0)
    Fixtures.expectGolden(old.stdout, "pages.state.txt")
  }

  @Test func whatTheTraceCannotAnswer() async {
    func error(_ arguments: String...) async -> String {
      let run = await loupe(["state"] + arguments)
      #expect(run.status == 3, "\(arguments)")
      #expect(run.stdout == "")
      return run.stderr
    }
    #expect(await error(states, "--store", "AppFeature#1", "--at", "99") == "Error: No event #99 in the trace: its events are #1–#26\n")
    #expect(await error(states, "--store", "AppFeature#1", "--at", "0") == "Error: No event #0 in the trace: its first event is #1\n")
    #expect(
      await error(states, "--store", "Settings*")
        == "Error: No store 'Settings*' in the trace by #26. Alive then: AppFeature#1, AppFeature#1/pages[id: 1], AppFeature#1/pages[id: 2]\n")
    #expect(
      await error(states, "--store", "AppFeature#1/detail", "--at", "22")
        == "Error: No store 'AppFeature#1/detail' is alive right after #22: AppFeature#1/detail (alive #16–#21)\n")
    #expect(
      await error(states, "--store", "AppFeature#1", "--path", "settings.volume")
        == "Error: AppFeature#1 has no value at 'settings.volume' right after #26 ('settings' has fontSize, sound)\n")
    #expect(
      await error(states, "--store", "AppFeature#1", "--path", "pages[id: 3].count")
        == "Error: AppFeature#1 has no value at 'pages[id: 3].count' right after #26 ('pages' is a list of 2)\n")
    #expect(
      await error(states, "--store", "AppFeature#1/pages*", "--format", "json")
        == "Error: 'AppFeature#1/pages*' matches 2 stores alive right after #26 (AppFeature#1/pages[id: 1], AppFeature#1/pages[id: 2]): --format json prints one state, so name one store\n"
    )
    // No snapshot, and no change yet.
    #expect(
      await error(pages, "--store", "AppFeature#1", "--at", "2")
        == "Error: Nothing of AppFeature#1's state is known right after #2: the trace has no state.snapshot of it and no state.changed of it or its scoped stores by then\n"
    )
    #expect(
      await error(Fixtures.path("counter.loupe"), "--store", "CounterFeature#1", "--at", "2")
        == "Error: Nothing of CounterFeature#1's state is known right after #2: the trace has no state.snapshot of it and no state.changed of it or its scoped stores by then\n"
    )
    #expect(await error(Fixtures.path("foreign.json"), "--store", "A").hasPrefix("Error: '\(Fixtures.path("foreign.json"))' is not a Loupe trace"))
  }

  @Test func badFlags() async {
    func usage(_ arguments: String...) async -> String {
      let run = await loupe(["state"] + arguments)
      #expect(run.status == 2, "\(arguments)")
      #expect(run.stderr.hasSuffix("Usage: loupe state FILE --store GLOB [--at SEQ] [--path PATH] [--format text|json]\nSee 'loupe state --help'.\n"))
      return String(run.stderr.prefix { $0 != "\n" })
    }
    #expect(
      await usage(states)
        == "Error: Missing expected option '--store GLOB' (which store's state; 'loupe show FILE --kind store.created' lists them)")
    #expect(await usage(states, "--store", "A", "--at", "last") == "Error: Invalid value 'last' for '--at': expected an event's sequence number (0 or more)")
    #expect(await usage(states, "--store", "A", "--at=-3") == "Error: Invalid value '-3' for '--at': expected an event's sequence number (0 or more)")
    #expect(await usage(states, "--store", "A", "--path", "pages[") == "Error: Invalid path 'pages[': unterminated '[' at offset 5")
    #expect(await usage(states, "--store", "A", "--format", "yaml") == "Error: Invalid value 'yaml' for '--format': expected text or json")
    #expect(await usage("-", "--store", "A") == "Error: state reads the trace back by offset: give it as a file, not standard input")
    #expect(await usage() == "Error: Missing expected argument 'FILE'")
  }
}
