import Testing
@testable import LoupeCore
@testable import LoupeSession

/// The trace reader's glance at a line's first members (``EventLineSkim``): a filter that
/// rules a line out on the glance agrees with the same filter on the decoded event, on the
/// fixtures and on lines built to mislead a byte-level reader.
@Suite struct EventLineSkimTests {
  static let headerLine = #"{"format":"loupe-trace","version":1,"program":"P","pid":1,"startedAt":"2026-11-22T09:00:00.000Z"}"#
  static let needsAll = EventLineSkim.Needs(store: true, action: true)

  func head(_ text: String, needs: EventLineSkim.Needs = needsAll) -> [String]? {
    let bytes = Array(text.utf8)
    guard let fields = bytes.withUnsafeBufferPointer({ EventLineSkim.head($0, needs: needs) }) else { return nil }
    return [fields.kind, fields.store, fields.action].map { member in
      switch member {
      case .plain(let range): String(decoding: bytes[range], as: UTF8.self)
      case .other: "<other>"
      case .absent: "<absent>"
      }
    }
  }

  @Test func findsTheFirstTopLevelMembers() {
    let line = #"{"seq":3,"time":1.5,"value":{"kind":"nested","store":"no","a":[{"action":"x"}]},"kind":"action.received","store":"A#1","action":"P.tick"}"#
    #expect(head(line) == ["action.received", "A#1", "P.tick"])
    // What is not needed is not looked for: the glance stops at `kind`.
    #expect(head(#"{"kind":"mark","label":"x"}"#, needs: .init(store: false, action: false)) == ["mark", "<absent>", "<absent>"])
    // Needed and missing: absent once the whole object is seen.
    #expect(head(#"{"seq":1,"kind":"mark","label":"x"}"#) == ["mark", "<absent>", "<absent>"])
    // Of repeated keys the first counts, as in the decoder.
    #expect(head(#"{"kind":"mark","kind":"state.changed","store":"A","store":"B","action":"a"}"#) == ["mark", "A", "a"])
    #expect(head(#" { "kind" : "mark" , "store":"A#1", "action": "a" } "#) == ["mark", "A#1", "a"])
  }

  @Test func givesUpOnWhatItCannotReadSafely() {
    #expect(head(#"{"ki\u006ed":"mark","kind":"state.changed"}"#) == nil)  // an escaped key may spell `kind`
    #expect(head(#"{"kind":"ma\"rk"}"#) == nil)  // an escaped kind
    #expect(head(#"{"kind":7}"#) == nil)
    #expect(head(#"{"seq":1}"#) == nil)  // no kind
    #expect(head(#"["kind","mark"]"#) == nil)
    #expect(head(#"{"seq":1,"value":"unterminated"#) == nil)
    #expect(head(#"{"seq":1 "kind":"mark"}"#) == nil)
    #expect(head("") == nil)
    // Escaped or non-string store and action are `other`: the decoder decides.
    #expect(head(#"{"kind":"mark","store":"A\u0023","action":null}"#) == ["mark", "<other>", "<other>"])
  }

  @Test func stepsOverStringsThatLookLikeStructure() {
    let line = #"{"value":"}{\"kind\":\"effect.started\"\\","more":["]","\"[",{"}":"{"}],"n":-1.5e3,"t":true,"kind":"mark","store":"S","action":"a"}"#
    #expect(head(line) == ["mark", "S", "a"])
    let long = #"{"label":""# + String(repeating: "abcdefgh\\\"", count: 40) + #"","kind":"mark","store":"é🙂","action":"a"}"#
    #expect(head(long) == ["mark", "é🙂", "a"])
  }

  static let filters: [EventFilter] = FastFilterTests.filters + [
    EventFilter(kinds: [Glob("mark")]),
    EventFilter(stores: [Glob("é?")]),
    EventFilter(stores: [Glob("*🙂")]),
    EventFilter(actions: [Glob("a")]),
    EventFilter(kinds: [Glob("state.changed")], paths: [Glob("count")]),
  ]

  /// Lines built to mislead a reader of bytes: members in odd orders, nested look-alikes,
  /// escapes, repeated keys, non-ASCII stores. Each decodes; the reader with a filter keeps
  /// exactly the events the decoder and ``EventFilter/matches(_:)`` keep.
  static let adversarialLines = [
    #"{"seq":1,"time":0,"kind":"mark","label":"{\"kind\":\"effect.started\",\"store\":\"S\"}"}"#,
    #"{"kind":"action.received","seq":2,"time":1,"action":"a","value":{"kind":"mark","store":"x"},"store":"é1","origin":"send"}"#,
    #"{"seq":3,"time":2,"kind":"effect.started","store":"A#1/pages[id: 2]","effect":1,"cause":1,"cancelID":null}"#,
    #"{"seq":4,"time":3,"kind":"mark","label":"x","kind":"effect.started"}"#,
    #"{"seq":5,"time":4,"ki\u006ed":"effect.finished","store":"S","effect":1,"outcome":"completed"}"#,
    #"{"seq":6,"time":5,"kind":"effect.finished","store":"S\u00e9","effect":1,"outcome":"completed"}"#,
    #"{"seq":7,"time":6,"store":"é🙂","kind":"store.destroyed","identity":"i"}"#,
    #"{"seq":8,"time":7,"kind":"state.changed","store":"S","cause":1,"changes":[{"path":"count","op":"replace","old":1,"new":2}],"summary":"S: _count changed."}"#,
    #"{"seq":9,"time":8,"kind":"future.kind","payload":[1,{"a":"]"}]}"#,
    #"{"seq":10,"time":9,"kind":"dropped","count":3}"#,
    #"{"seq":11,"time":10,"kind":"action.received","store":"S","action":"P.Action.addTapped","value":"addTapped","origin":"send","action":"a"}"#,
    #"{ "seq" : 12 , "time" : 11 , "kind" : "warning" , "code" : "c" , "message" : "m" }"#,
  ]

  @Test(arguments: filters)
  func readerAgreesWithTheDecoderOnAdversarialLines(filter: EventFilter) throws {
    let events = try Self.adversarialLines.map { try Event(jsonText: Array($0.utf8)) }
    let scratch = ScratchDirectory()
    let path = scratch.file("adversarial.loupe", text: ([Self.headerLine] + Self.adversarialLines).joined(separator: "\n") + "\n")
    let expected = events.filter(filter.matches).map(\.seq)
    for decode in [false, true] {
      let reader = try TraceReader(path: path)
      var seqs: [Int] = []
      while let item = try reader.next(filter: filter, decode: decode) { seqs.append(item.seq) }
      #expect(seqs == expected, "decode: \(decode)")
      #expect(reader.malformedLineCount == 0)
    }
  }

  /// What a filter keeps is checked in full; what it rules out on the glance is not (the
  /// documented trade: damage in lines nobody asked for is not reported). A truncated last
  /// line is always reported.
  @Test func damageIsReportedInWhatTheFilterKeeps() throws {
    let lines = [
      #"{"seq":1,"time":0,"kind":"mark","label":"ok"}"#,
      #"{"seq":2,"time":1,"kind":"mark","label":"bad" "x"}"#,
      #"{"seq":3,"time":2,"kind":"effect.started","store":"S","effect":1,"cause":1,"cancelID":nul}"#,
      #"{"seq":4,"time":3,"kind":"mark","label":"last"}"#,
      #"{"seq":5,"time":4,"kind":"effect.started","store":"S""#,
    ]
    let scratch = ScratchDirectory()
    let path = scratch.file("damaged.loupe", text: ([Self.headerLine] + lines).joined(separator: "\n"))
    let reader = try TraceReader(path: path)
    var seqs: [Int] = []
    while let item = try reader.next(filter: EventFilter(kinds: [Glob("mark")]), decode: false) { seqs.append(item.seq) }
    #expect(seqs == [1, 4])
    #expect(reader.malformedLines.map(\.line) == [3])  // line 3 is seq 2, a mark; seq 3 is ruled out unread
    #expect(reader.truncation?.line == 6)
  }

  @Test func globsMatchUTF8BytesAsTheyMatchStrings() {
    let patterns = ["*", "a*", "*a", "?", "??", "é?", "?🙂", "*é*", "a?c", "*[id: ?]*", "A\\*", "", "*?b", "*??"]
    let texts = ["", "a", "abc", "é", "éa", "éab", "a🙂", "🙂", "A*", "x[id: 2]y", "aéc", "ab", "eé"]
    for pattern in patterns {
      let glob = Glob(pattern)
      for text in texts {
        let bytes = Array(text.utf8)
        let byBytes = bytes.withUnsafeBufferPointer { glob.matches(utf8: $0) }
        // The reference: the pattern matched scalar by scalar.
        #expect(byBytes == glob.matchesScalars(text), "\(pattern) vs \(text)")
        #expect(glob.matches(text) == glob.matchesScalars(text), "\(pattern) vs \(text)")
      }
    }
    #expect(Glob("é?").matches("éa"))
    #expect(!Glob("é?").matches("é"))
    #expect(Glob("?").matches("🙂"))
    #expect(!Glob("??").matches("🙂"))
    #expect(Glob("*?b").matches("éab"))
    #expect(!Glob("*??").matches("é"))
  }
}
