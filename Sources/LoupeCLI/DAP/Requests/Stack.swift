import LoupeCore

/// `threads`, `stackTrace`, `scopes`: stores as threads, an event's causes as its stack.
extension DAPSession {
  /// The stores alive where the view stands (at the present while running), plus the session
  /// thread. The store of the event stopped at is listed even when that event destroyed it.
  func threadsRequest(_ request: DAPRequest) throws(DAPError) {
    var list: [JSON] = [["id": .int(DAPThreads.sessionThread), "name": .string(DAPThreads.sessionName)]]
    if phase == .open, model.count > 0 {
      let index = stop?.index ?? model.count - 1
      var stores = model.stores(at: index).map(\.id)
      if let store = model.event(at: index).store, !stores.contains(store) { stores.append(store) }
      for store in stores {
        list.append(["id": .int(threads.id(for: store)), "name": .string(store)])
      }
    }
    channel.respond(to: request, body: ["threads": .array(list)])
  }

  /// The event the thread is at: the stop's event when it is the thread's, otherwise the
  /// thread's last event at or before the stop.
  func anchor(thread: Int, stop: StopPoint) -> Int? {
    let store = threads.store(of: thread)
    if model.event(at: stop.index).store == store { return stop.index }
    return model.lastIndex(atOrBefore: stop.index, store: store)
  }

  /// The stack: the thread's event, then its cause, its cause's cause, … newest first (CONTRACT
  /// §11). A chain can cross stores: a cancellation's cause is the other store's action.
  func stackTrace(_ request: DAPRequest) throws(DAPError) {
    let stop = try requireStop(request.command)
    let thread = try request.arguments.requiredInt("threadId")
    guard threads.isKnown(thread) else { throw DAPError(.unknownReference, "No thread \(thread).") }
    var chain: [Int] = []
    var next = anchor(thread: thread, stop: stop)
    while let index = next, chain.count < Self.maximumStackDepth {
      chain.append(index)
      next = model.cause(of: index)
    }
    let start = max(0, try request.arguments.int("startFrame") ?? 0)
    let levels = try request.arguments.int("levels") ?? 0
    let end = levels > 0 ? min(chain.count, start + levels) : chain.count
    // A frame with no line of its own (a change, a store's creation) shows the line of the
    // nearest cause that has one — a change its action's — so that editors, which select
    // the first frame with a source, select this one and show the state it stopped at.
    var locations = chain.map { EventDescription.source(model.event(at: $0)) }
    for position in locations.indices.reversed().dropFirst() where locations[position] == nil {
      locations[position] = locations[position + 1]
    }
    var frames: [JSON] = []
    if start < end {
      for position in start..<end {
        let index = chain[position]
        let event = model.event(at: index)
        let id = references.add(DAPReferences.Frame(index: index, thread: thread))
        var frame: JSONObject = ["id": .int(id), "name": .string(EventDescription.frameName(event))]
        if let location = locations[position] {
          frame["source"] = sources.source(for: location)
          frame["line"] = .int(line(location.line))
          frame["column"] = .int(line(1))
        } else {
          frame["line"] = 0
          frame["column"] = 0
        }
        frames.append(.object(frame))
      }
    }
    channel.respond(to: request, body: ["stackFrames": .array(frames), "totalFrames": .int(chain.count)])
  }

  static let maximumStackDepth = 256

  /// A 1-based line for the client's convention.
  func line(_ oneBased: Int) -> Int { linesStartAt1 ? oneBased : oneBased - 1 }

  /// `State` (the store's whole state after the event), `Action` (the action the event is or
  /// follows from: label, origin, line, payload), `Event` (the event's own fields),
  /// `Changes` (what the event — or the action it belongs to — changed in the store) and
  /// `Effects` (the store's effects running after the event).
  func scopes(_ request: DAPRequest) throws(DAPError) {
    _ = try requireStop(request.command)
    let frame = try frame(request.arguments)
    let event = model.event(at: frame.index)
    var scopes: [JSON] = []
    if let store = event.store ?? threads.store(of: frame.thread) {
      if let state = model.state(of: store, at: frame.index) {
        let reference = references.add(.value(state.value, shape: state.shape, store: store, path: StatePath()))
        var scope = DAPScopes.scope(state.approximate ? "State (approximate)" : "State", reference, hint: "locals", value: state.value)
        scope["expensive"] = false
        scopes.append(.object(scope))
      }
    }
    if let actionIndex = event.kind == ActionReceived.kind ? frame.index : actionBehind(frame.index),
      case .actionReceived(let action) = model.event(at: actionIndex).payload
    {
      var rows = [
        DAPVariable(name: "action", value: ActionText.text(action)),
        DAPVariable(name: "seq", value: "#\(model.event(at: actionIndex).seq)"),
        DAPVariable(name: "origin", value: action.origin == .effect ? "effect \(action.effect.map(String.init) ?? "?")" : action.origin.rawValue),
      ]
      if let source = action.source { rows.append(DAPVariable(name: "source", value: source.description)) }
      rows.append(DAPScopes.variable(named: "value", action.value, shape: action.shape, store: nil, path: nil, references: &references))
      scopes.append(.object(DAPScopes.scope("Action", references.add(.list(rows)), named: rows.count)))
    }
    let eventReference = references.add(.value(model.eventJSON(at: frame.index), store: nil, path: nil))
    scopes.append(.object(DAPScopes.scope("Event", eventReference, hint: "arguments", value: nil)))
    let changes = DAPScopes.changes(for: frame.index, in: model)
    if !changes.isEmpty {
      let reference = references.add(.list(changes.map { change in DAPScopes.variable(for: change, references: &references) }))
      scopes.append(.object(DAPScopes.scope("Changes", reference, named: changes.count)))
    }
    if let store = event.store ?? threads.store(of: frame.thread) {
      let effects = model.runningEffects(of: store, at: frame.index)
      let rows = effects.map { index in DAPScopes.variable(forEffectAt: index, in: model, references: &references) }
      let reference = references.add(.list(rows))
      scopes.append(.object(DAPScopes.scope("Effects", reference, named: rows.count)))
    }
    channel.respond(to: request, body: ["scopes": .array(scopes)])
  }

  func frame(_ arguments: DAPArguments) throws(DAPError) -> DAPReferences.Frame {
    let id = try arguments.requiredInt("frameId")
    guard let frame = references.frame(id) else {
      throw DAPError(.unknownReference, "No frame \(id) here: frames are valid only until the view moves.")
    }
    return frame
  }
}
