import LoupeClient
import LoupeCore
import LoupeRPC
import LoupeSession

/// Acting on a live program from the editor (CONTRACT §16): `setVariable` on a `State`
/// variable, and `send [STORE] ACTION` typed in the Debug Console. Both go through the
/// program's `loupe/setState` and `loupe/send`, so the program must allow control
/// (`LOUPE_CONTROL=1`); what it refuses comes back as an error response with its own words.
extension DAPSession {
  /// A live session can set variables: `initialize` came before the editor said what it
  /// debugs, so the capability is announced once a program is open (DAP's `capabilities`).
  func announceControl() {
    guard target?.isLive == true else { return }
    channel.event("capabilities", ["capabilities": ["supportsSetVariable": true]])
  }

  /// `setVariable {variablesReference, name, value}` on a variable of the `State` scope (or of
  /// a state path evaluated): the value (JSON text, or a case name) is put at the variable's
  /// path in the program's current state, and that state is sent with `loupe/setState` to the
  /// store's root store (a scoped store's path is its scope in the root's state). The answer
  /// is the value the program holds there afterwards.
  func setVariable(_ request: DAPRequest) async throws(DAPError) {
    _ = try requireStop(request.command)
    let arguments = request.arguments
    let id = try arguments.requiredInt("variablesReference")
    let name = try arguments.requiredString("name")
    let text = try arguments.requiredString("value")
    let client = try liveClient(toAct: "set '\(name)' in")
    guard let node = references.node(id) else {
      throw DAPError(.unknownReference, "No variables \(id) here: references are valid only until the view moves.")
    }
    guard case .value(let container, _, let store?, let path?) = node else {
      throw DAPError(.notAvailable, "Only a store's state can be set: '\(name)' is not a variable of the State scope.")
    }
    let variablePath = path.appending(try Self.component(named: name, in: container))
    let value = try Self.controlValue(text, what: "value")
    let (root, fullPath) = try Self.inRoot(store: store, variablePath)

    let current = try await Self.control(StateRequest(store: root), client)
    if RenderMarker.showsCut(current.state) {
      throw DAPError(
        .refused,
        "\(root)'s state is larger than Loupe shows it (a collection, a string or the depth was cut short), so it cannot be sent back whole without losing what was left out.")
    }
    guard StateRebuilder.value(in: current.state, at: fullPath) != nil else {
      throw DAPError(.refused, "\(root) has no '\(fullPath)' now (its state changed since the view stopped): nothing was set.")
    }
    var state = current.state
    do {
      try Change(path: fullPath.description, op: .replace, new: value).apply(to: &state)
    } catch {
      throw DAPError(.refused, "Cannot put the value at '\(fullPath)' of \(root)'s state: \(error).")
    }
    let result = try await Self.control(SetStateRequest(store: root, state: state), client)
    // What the program holds there now (its decoding, its redactions), else what was sent.
    let now = try? await client.send(StateRequest(store: root, path: fullPath.description))
    let shown = now?.state ?? value
    let row = DAPScopes.variable(named: name, shown, store: store, path: variablePath, references: &references)
    var body: JSONObject = ["value": .string(row.value), "type": .string(shown.typeName), "variablesReference": .int(row.variablesReference)]
    if let named = row.namedVariables { body["namedVariables"] = .int(named) }
    if let indexed = row.indexedVariables { body["indexedVariables"] = .int(indexed) }
    channel.respond(to: request, body: .object(body))
    let mark = result.seq.map { " (mark #\($0), its changes have origin tool)" } ?? ""
    channel.output("loupe dap: set \(store) \(variablePath) = \(row.value) in the program\(mark); the view stays where it is stopped.\n")
  }

  /// `evaluate`: `send [STORE] ACTION` in the Debug Console (context `repl`) sends an action;
  /// everything else is a state path (``evaluate(_:)``).
  func evaluateOrSend(_ request: DAPRequest) async throws(DAPError) {
    let expression = try request.arguments.requiredString("expression").trimmingCharacters(in: .whitespaces)
    guard let command = ConsoleSend(expression) else {
      try evaluate(request)
      return
    }
    guard try request.arguments.string("context") == "repl" else {
      throw DAPError(.notAvailable, "'send' acts on the program: type it in the Debug Console, not in a watch or a hover.")
    }
    try requireOpen(request.command)
    let client = try liveClient(toAct: "send an action to")
    let store: String
    if let named = command.store {
      store = named
    } else if let stop {
      store = try storeAndIndex(frameID: try request.arguments.int("frameId"), stop: stop).store
    } else {
      throw DAPError(.notAvailable, "Name the store: send STORE ACTION (the view is not stopped at a store's event).")
    }
    let action = try Self.controlValue(command.action, what: "action")
    let result = try await Self.control(SendRequest(store: store, action: action), client)
    let text = "sent \(Formatting.truncate(action.jsonText, limit: 120)) to \(store)" + (result.seq.map { " as #\($0)" } ?? "")
    channel.respond(to: request, body: ["result": .string(text), "variablesReference": 0])
  }

  /// The live program's client; a recording refuses (it has no program).
  private func liveClient(toAct verb: String) throws(DAPError) -> LoupeClient {
    guard let client = target?.client else {
      throw DAPError(
        .refused,
        "This session is a recording: it has no program to \(verb). Launch the program (with \"env\": {\"LOUPE_CONTROL\": \"1\"}) or attach to one started with LOUPE_CONTROL=1.")
    }
    return client
  }

  /// A control request; the program's refusal is an error response with its message.
  private static func control<R: RequestType>(_ request: R, _ client: LoupeClient) async throws(DAPError) -> R.Result {
    do {
      return try await client.send(request)
    } catch {
      if case .response(let response) = error { throw DAPError(.refused, response.message) }
      throw DAPError(.targetFailed, "The program did not answer: \(error).")
    }
  }

  /// The root store whose state holds `path` of `store`, and where: a scoped store's state is
  /// the value at its scope in the root's (`AppFeature#1/pages[id: 2]`, `count` →
  /// `AppFeature#1`, `pages[id: 2].count`).
  static func inRoot(store: String, _ path: StatePath) throws(DAPError) -> (root: String, path: StatePath) {
    guard let scope = StateRebuilder.scopePath(of: store) else {
      throw DAPError(.notAvailable, "The store id '\(store)' does not name a path in its root's state.")
    }
    return (StateRebuilder.rootStore(of: store), StatePath(scope.components + path.components))
  }

  /// The component a variable's name stands for in its container: a member's key, or an
  /// element's `[id: X]` (identified) or `[N]`.
  static func component(named name: String, in container: JSON) throws(DAPError) -> StatePath.Component {
    switch container {
    case .object(let object) where object[name] != nil:
      return component(forKey: name)
    case .array(let array):
      if name.hasPrefix("["), name.hasSuffix("]"), let offset = Int(name.dropFirst().dropLast()), array.indices.contains(offset) {
        return component(for: array[offset], at: offset)
      }
    default:
      break
    }
    throw DAPError(.notAvailable, "There is no variable '\(name)' here.")
  }

  /// A value typed by the user: JSON text (`3`, `true`, `"text"`, `{"selected": true}`), or a
  /// bare case name (`loading`, `.loading`), which is the string Loupe renders it as.
  static func controlValue(_ text: String, what: String) throws(DAPError) -> JSON {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if let json = try? JSONParser.parse(trimmed) { return json }
    let name = trimmed.hasPrefix(".") ? String(trimmed.dropFirst()) : trimmed
    if let first = name.first, first.isLetter || first == "_", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
      return .string(name)
    }
    throw DAPError(
      .invalidArguments,
      "'\(trimmed)' is not a value: write the \(what) as Loupe shows it, as JSON (3, true, \"text\", {\"selected\": true}) or a case name (onAppear).")
  }
}

/// `send ACTION` or `send STORE ACTION`, as typed in the Debug Console. A store id holds a
/// `#` (`PageFeature#1`, `AppFeature#1/pages[id: 2]`); an action in Loupe's form never starts
/// with one, so the first word names the store when it has one.
struct ConsoleSend: Equatable {
  var store: String?
  var action: String

  init(store: String?, action: String) {
    self.store = store
    self.action = action
  }

  init?(_ expression: String) {
    guard expression.hasPrefix("send"), let space = expression.dropFirst(4).first, space.isWhitespace else { return nil }
    let rest = expression.dropFirst(5).drop { $0.isWhitespace }
    guard !rest.isEmpty else { return nil }
    // The first word, with what is inside brackets (`pages[id: 2]`) kept whole.
    var depth = 0
    var end = rest.endIndex
    for index in rest.indices {
      let character = rest[index]
      if character == "[" { depth += 1 } else if character == "]" { depth -= 1 } else if character.isWhitespace, depth <= 0 {
        end = index
        break
      }
    }
    let word = rest[..<end]
    let remainder = rest[end...].drop { $0.isWhitespace }
    if word.contains("#"), !remainder.isEmpty, word.first.map({ "{[\"".contains($0) }) != true {
      store = String(word)
      action = String(remainder)
    } else {
      store = nil
      action = String(rest)
    }
  }
}
